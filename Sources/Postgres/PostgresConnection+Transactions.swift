import CPostgres
#if canImport(Glibc)
import Glibc
#endif

extension PostgresConnection {
    // MARK: - Transactions

    /// Runs `body` in a transaction: commits if it returns, rolls back if it throws.
    ///
    /// ```swift
    /// let orderID = try connection.inTransaction {
    ///     let id: Int64? = try connection.fetchValue("INSERT INTO orders (cart_id) VALUES ($1) RETURNING id", cartID)
    ///     try connection.execute("DELETE FROM cart_items WHERE cart_id = $1", cartID)
    ///     return id
    /// }
    /// ```
    ///
    /// Called while a transaction is already open, it nests as a savepoint: an error undoes
    /// only the inner work (and is rethrown), and the outer transaction's level stays.
    ///
    /// A statement that fails aborts the whole PostgreSQL transaction. If `body` catches
    /// such an error and returns normally, the transaction is rolled back and a misuse
    /// error is thrown instead of a commit that would silently do nothing.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level; ignored when nesting.
    ///   - body: The work; it uses this same connection.
    /// - Returns: What `body` returns.
    /// - Throws: The first error: from `BEGIN`, from `body`, or from `COMMIT` (where a
    ///   SERIALIZABLE transaction may fail with 40001). A failed rollback never replaces it.
    @discardableResult
    public func inTransaction<T>(_ isolation: IsolationLevel = .readCommitted, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            return try inSavepoint(body)
        }
        try runCommand(isolation.beginSQL, operation: Operation.begin)
        let result: T
        do {
            result = try body()
            guard !isTransactionFailed else {
                throw PostgresError.misuse(
                    "a statement failed in the transaction and its error was caught; the transaction was rolled back",
                    operation: Operation.commit
                )
            }
            try runCommand("COMMIT", operation: Operation.commit)
        } catch {
            rollbackAfterFailure()
            throw error
        }
        return result
    }

    /// Runs `body` in a transaction, and reruns the whole transaction when it fails with a
    /// serialization failure (40001) or a deadlock (40P01), up to `maximumAttempts` runs in
    /// all, after a short random pause that grows with each attempt.
    ///
    /// `body` may run several times: it must have no effect outside the database that a
    /// rerun would repeat. Inside an open transaction it nests as a savepoint and is not
    /// retried, since only the outermost transaction can be rerun.
    ///
    /// ```swift
    /// try connection.inTransaction(.serializable, maximumAttempts: 5) {
    ///     let quantity: Int = try connection.fetchValue("SELECT qty FROM cart_items WHERE id = $1", id) ?? 0
    ///     try connection.execute("UPDATE cart_items SET qty = $1 WHERE id = $2", min(quantity + 1, 10), id)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The isolation level.
    ///   - maximumAttempts: How many runs at most; at least 1.
    ///   - body: The work; it uses this same connection.
    /// - Returns: What the successful run of `body` returns.
    /// - Throws: The last attempt's error, or the first error that is not retryable.
    @discardableResult
    public func inTransaction<T>(_ isolation: IsolationLevel = .readCommitted, maximumAttempts: Int, _ body: () throws -> T) throws -> T {
        precondition(maximumAttempts > 0, "a transaction needs at least one attempt")
        if isInTransaction {
            return try inSavepoint(body)
        }
        var attempt = 1
        while true {
            do {
                return try inTransaction(isolation, body)
            } catch let error as PostgresError where error.isTransactionRetryable && attempt < maximumAttempts && !isBroken {
                // Transactions that collided would collide again if rerun in lockstep.
                usleep(UInt32.random(in: 500...2_000) * UInt32(attempt))
                attempt += 1
            }
        }
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try runCommand("SAVEPOINT nested", operation: Operation.savepoint)
        do {
            let result = try body()
            try runCommand("RELEASE SAVEPOINT nested", operation: Operation.commit)
            return result
        } catch {
            if isInTransaction, !isBroken {
                try? runCommand("ROLLBACK TO SAVEPOINT nested", operation: Operation.execute)
                try? runCommand("RELEASE SAVEPOINT nested", operation: Operation.execute)
            }
            throw error
        }
    }

    /// Rolls back after a failure, keeping the original error as the one reported.
    /// A broken connection has no transaction left to roll back: the server ends it.
    func rollbackAfterFailure() {
        guard isInTransaction, !isBroken else { return }
        try? runCommand("ROLLBACK", operation: Operation.execute)
    }

    // MARK: - Notifications

    /// Sends a notification on `channel` with `SELECT pg_notify($1, $2)`.
    ///
    /// Inside a transaction, PostgreSQL delivers it only when the transaction commits, and
    /// never if it rolls back; identical notifications of one transaction are delivered
    /// once. Listeners receive it through ``PostgresListener``.
    ///
    /// - Parameters:
    ///   - channel: The channel name, case-sensitive (the listener quotes it the same way).
    ///   - payload: The text to deliver; under 8000 bytes.
    /// - Throws: ``PostgresError`` if the server refuses it (a payload too long, 22023).
    public func notify(channel: String, payload: String) throws {
        try execute("SELECT pg_notify($1, $2)", channel, payload)
    }

    /// Runs a fixed command with the simple protocol: nothing to prepare, nothing to bind.
    func runCommand(_ sql: String, operation: String) throws(PostgresError) {
        PQclear(try exchange(operation: operation, sql: sql) { PQsendQuery($0, sql) })
    }
}
