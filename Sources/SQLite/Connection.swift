import CSQLite

/// The `sqlite3*` handle, shared by a ``Database`` and every ``Statement`` prepared on it.
///
/// Statements hold this box rather than the `Database`, so the database's statement cache
/// does not form a retain cycle, and a statement that outlives its database finds the
/// handle gone (`nil`) and throws instead of touching a closed connection.
final class Connection {
    /// The open handle, or `nil` once closed.
    private(set) var handle: OpaquePointer?

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// The open handle.
    ///
    /// - Throws: ``SQLiteError`` (misuse) if the connection is closed.
    func openHandle(sql: String? = nil) throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw .misuse("the database connection is closed", sql: sql) }
        return handle
    }

    /// Checks a result code from a call on this connection; see ``check(_:handle:sql:)``.
    ///
    /// - Returns: `resultCode`, so callers can tell `SQLITE_ROW` from `SQLITE_DONE`.
    @discardableResult
    @inline(__always)
    func check(_ resultCode: Int32, sql: @autoclosure () -> String?) throws(SQLiteError) -> Int32 {
        try Self.check(resultCode, handle: handle, sql: sql())
    }

    /// The single gate every C result code passes through.
    ///
    /// `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE` are successes; anything else becomes an
    /// ``SQLiteError`` built right away, while `sqlite3_errmsg` still describes it. The SQL
    /// text is only worked out then, since callers often have to build it.
    ///
    /// - Returns: `resultCode`, so callers can tell `SQLITE_ROW` from `SQLITE_DONE`.
    @discardableResult
    @inline(__always)
    static func check(_ resultCode: Int32, handle: OpaquePointer?, sql: @autoclosure () -> String?) throws(SQLiteError) -> Int32 {
        switch resultCode {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return resultCode
        default:
            throw SQLiteError(resultCode: resultCode, handle: handle, sql: sql())
        }
    }

    /// Closes the handle with `sqlite3_close_v2`, which defers the real close until any
    /// statement still alive elsewhere is finalized, instead of failing with SQLITE_BUSY.
    func close() {
        guard let handle else { return }
        self.handle = nil
        sqlite3_close_v2(handle)
    }
}
