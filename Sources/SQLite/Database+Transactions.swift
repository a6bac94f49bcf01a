extension Database {
    // MARK: - Transactions

    /// Runs `body` in a transaction: commits if it returns, rolls back if it throws.
    ///
    /// The default kind, ``TransactionKind/immediate``, takes the write lock at `BEGIN`
    /// (waiting up to the busy timeout), which is what any read-modify-write needs.
    ///
    /// ```swift
    /// let orderID = try db.inTransaction {
    ///     try db.execute("INSERT INTO orders (cart_id) VALUES (?)", [cartID])
    ///     let id = db.lastInsertRowID
    ///     try db.execute("DELETE FROM cart_items WHERE cart_id = ?", [cartID])
    ///     return id
    /// }
    /// ```
    ///
    /// Called while a transaction is already open, it nests as a savepoint: an error
    /// undoes only the inner work (and is rethrown), and the outer transaction's kind
    /// stays in force.
    ///
    /// - Parameters:
    ///   - kind: How `BEGIN` takes locks.
    ///   - body: The work; it uses this same `Database`.
    /// - Returns: What `body` returns.
    /// - Throws: The first error: from `BEGIN`, from `body`, or from `COMMIT`. A failed
    ///   rollback never replaces it.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            return try inSavepoint(body)
        }
        try execute(kind.beginSQL)
        let result: T
        do {
            result = try body()
            try execute("COMMIT TRANSACTION")
        } catch {
            rollbackAfterFailure()
            throw error
        }
        return result
    }

    /// Runs `body` in a deferred transaction, so all its queries see one consistent
    /// snapshot of the database even while other connections commit.
    ///
    /// It does not forbid writes, but a write from inside it can fail with
    /// ``SQLiteError/busySnapshot``; write with ``inTransaction(_:_:)`` instead.
    ///
    /// - Parameter body: The queries; they use this same `Database`.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``SQLiteError`` if the transaction cannot open.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try inTransaction(.deferred, body)
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT nested")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT nested")
            return result
        } catch {
            // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) make SQLite roll back the whole
            // transaction itself, and then there is no savepoint left to return to.
            if isInTransaction {
                try? execute("ROLLBACK TRANSACTION TO SAVEPOINT nested")
                try? execute("RELEASE SAVEPOINT nested")
            }
            throw error
        }
    }

    /// Rolls back after a failure, keeping the original error as the one reported.
    ///
    /// SQLite may already have rolled back by itself (after SQLITE_FULL, SQLITE_IOERR,
    /// SQLITE_NOMEM, ...), in which case a ROLLBACK would only fail again.
    func rollbackAfterFailure() {
        guard isInTransaction else { return }
        try? execute("ROLLBACK TRANSACTION")
    }
}
