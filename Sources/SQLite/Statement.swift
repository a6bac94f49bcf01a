import CSQLite
import RowDecoding

/// A prepared SQL statement: compiled once, then bound, stepped and reset many times.
///
/// Most code never touches a `Statement`: ``Database``'s `execute` and `fetch` methods
/// take a cached one, bind the arguments, run it and reset it. Use one directly to step
/// through a large result without collecting it:
///
/// ```swift
/// let statement = try db.cachedStatement(sql: "SELECT id, total FROM orders WHERE day = ?")
/// try statement.bind([.text(day)])
/// while try statement.step() {
///     let row = statement.row()
///     report.add(id: try row.int(0), total: try row.int(1))
/// }
/// statement.reset()
/// ```
///
/// Like its ``Database``, a statement is used by one thread at a time and is not `Sendable`.
public final class Statement {
    /// The SQL text the statement was prepared from.
    public let sql: String

    private let connection: Connection
    /// `nil` once finalized by ``Database/close()``.
    private var handle: OpaquePointer?
    /// Column names of the current execution, read at its first row.
    private var columns: ColumnNames?

    /// Compiles exactly one SQL statement.
    ///
    /// - Parameters:
    ///   - persistent: Hints SQLite that the statement will be reused many times, as
    ///     cached statements are.
    /// - Throws: ``SQLiteError`` if SQLite rejects the SQL, or (misuse) if `sql` holds no
    ///   statement or more than one, since SQLite would silently ignore the rest.
    init(connection: Connection, sql: String, persistent: Bool) throws(SQLiteError) {
        let database = try connection.openHandle(sql: sql)
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var handle: OpaquePointer?
        var hasMoreStatements = false
        let resultCode = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(database, text, -1, flags, &handle, &tail)
            if resultCode == SQLITE_OK, let tail {
                hasMoreStatements = Self.containsStatement(tail, database: database)
            }
            return resultCode
        }
        try connection.check(resultCode, sql: sql)
        guard let handle else {
            throw .misuse("the SQL text contains no statement", sql: sql)
        }
        guard !hasMoreStatements else {
            sqlite3_finalize(handle)
            throw .misuse("the SQL text contains more than one statement; use execute(sql:) for scripts", sql: sql)
        }
        self.sql = sql
        self.connection = connection
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Whether the text after a prepared statement holds another one; only comments and
    /// whitespace may follow. Text that fails to compile counts as a statement too.
    private static func containsStatement(_ text: UnsafePointer<CChar>, database: OpaquePointer) -> Bool {
        var text = text
        while text.pointee != 0 {
            var extra: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v2(database, text, -1, &extra, &tail)
            if resultCode != SQLITE_OK || extra != nil {
                sqlite3_finalize(extra)
                return true
            }
            guard let tail, tail != text else { return false }
            text = tail
        }
        return false
    }

    // MARK: - Life cycle

    /// The live handle, checked against a finalized statement and a closed connection.
    @inline(__always)
    private func liveHandle() throws(SQLiteError) -> OpaquePointer {
        guard let handle, connection.handle != nil else {
            throw .misuse("the statement's database connection is closed", sql: sql)
        }
        return handle
    }

    /// Finalizes the statement now; later use throws. Called when the database closes.
    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Whether the statement is in the middle of an execution (stepped, not yet done or reset).
    var isBusy: Bool {
        handle.map { sqlite3_stmt_busy($0) != 0 } ?? false
    }

    /// Rewinds the statement so it can run again, keeping its bindings.
    ///
    /// Resetting also ends the implicit read transaction of a half-read query, so do it
    /// promptly. Any error of the last step was already thrown by ``step()``, so the
    /// result code `sqlite3_reset` repeats is deliberately not inspected.
    public func reset() {
        columns = nil
        if let handle {
            sqlite3_reset(handle)
        }
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        if let handle {
            sqlite3_clear_bindings(handle)
        }
    }

    // MARK: - Metadata

    /// The number of `?` (and named) parameters.
    public var parameterCount: Int {
        handle.map { Int(sqlite3_bind_parameter_count($0)) } ?? 0
    }

    /// The number of result columns; zero for statements that return no rows.
    public var columnCount: Int {
        handle.map { Int(sqlite3_column_count($0)) } ?? 0
    }

    /// The result column names (the `AS` alias when given).
    public var columnNames: [String] {
        guard let handle else { return [] }
        return (0..<sqlite3_column_count(handle)).map { column in
            sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
        }
    }

    /// Whether the statement makes no direct change to the database file.
    public var isReadOnly: Bool {
        handle.map { sqlite3_stmt_readonly($0) != 0 } ?? true
    }

    // MARK: - Binding

    /// Binds all parameters by position.
    ///
    /// The count must match exactly: SQLite would bind a missing argument as NULL, which
    /// hides bugs.
    ///
    /// - Parameter arguments: One value per parameter, in order.
    /// - Throws: ``SQLiteError`` on a count mismatch (misuse), or if SQLite refuses a value
    ///   (for instance ``SQLiteError/tooBig``, or misuse while the statement is running).
    public func bind(_ arguments: [DatabaseValue]) throws {
        let handle = try liveHandle()
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError.misuse("the statement takes \(expected) arguments, but \(arguments.count) were given", sql: sql)
        }
        for (offset, value) in arguments.enumerated() {
            try bind(value, at: Int32(offset + 1), handle: handle)
        }
    }

    /// Binds one parameter by its 1-based position.
    ///
    /// - Parameters:
    ///   - value: The value to bind.
    ///   - index: The parameter position; the first `?` is 1.
    /// - Throws: ``SQLiteError`` (``SQLiteError/range``) if there is no such parameter.
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        let handle = try liveHandle()
        guard let position = Int32(exactly: index) else {
            throw SQLiteError(resultCode: SQLITE_RANGE, message: "parameter index \(index) is out of range", sql: sql)
        }
        try bind(value, at: position, handle: handle)
    }

    /// Binds one named parameter, such as `:email`, `@email` or `$email`.
    ///
    /// - Parameters:
    ///   - value: The value to bind.
    ///   - name: The parameter name including its prefix character.
    /// - Throws: ``SQLiteError`` (``SQLiteError/range``) if there is no such parameter.
    public func bind(_ value: DatabaseValue, named name: String) throws {
        let handle = try liveHandle()
        let position = sqlite3_bind_parameter_index(handle, name)
        guard position > 0 else {
            throw SQLiteError(resultCode: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        try bind(value, at: position, handle: handle)
    }

    /// Binds with `SQLITE_TRANSIENT`, so SQLite copies text and blobs before returning and
    /// the Swift buffers may go away.
    private func bind(_ value: DatabaseValue, at position: Int32, handle: OpaquePointer) throws(SQLiteError) {
        let resultCode: Int32
        switch value {
        case .null:
            resultCode = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            resultCode = sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            resultCode = sqlite3_bind_double(handle, position, real)
        case .text(var text):
            resultCode = text.withUTF8 { utf8 in
                // A nil pointer would bind NULL, so the empty string gets a real one.
                guard let base = utf8.baseAddress, !utf8.isEmpty else {
                    return sqlite3_bind_text(handle, position, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
                    sqlite3_bind_text64(handle, position, chars, UInt64(utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            resultCode = bytes.withUnsafeBytes { raw in
                // Likewise, a nil pointer would bind NULL instead of an empty blob.
                guard let base = raw.baseAddress, !raw.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, position, 0)
                }
                return sqlite3_bind_blob64(handle, position, base, UInt64(raw.count), csqlite_transient())
            }
        }
        try connection.check(resultCode, sql: sql)
    }

    // MARK: - Stepping

    /// Runs the statement to its next row.
    ///
    /// - Returns: `true` if a row is available through ``row()``, `false` when done.
    /// - Throws: ``SQLiteError`` if the statement fails; ``reset()`` it before reuse.
    @discardableResult
    public func step() throws -> Bool {
        let handle = try liveHandle()
        return try connection.check(sqlite3_step(handle), sql: sql) == SQLITE_ROW
    }

    /// Copies the current row out of SQLite.
    ///
    /// Call only after ``step()`` returned `true`; SQLite reports NULLs otherwise.
    ///
    /// - Returns: The row, whose text and blobs no longer depend on SQLite's buffers.
    public func row() -> Row {
        guard let handle else { return Row(values: [], columns: ColumnNames(names: [])) }
        let columns = self.columns ?? ColumnNames(names: columnNames)
        self.columns = columns
        var values: [DatabaseValue] = []
        values.reserveCapacity(columns.names.count)
        for column in 0..<Int32(columns.names.count) {
            values.append(Self.value(of: handle, at: column))
        }
        return Row(values: values, columns: columns)
    }

    /// Reads one column of the current row. The text and blob pointers are valid only
    /// until the next step, so their bytes are copied here; the pointer is fetched before
    /// the byte count, as SQLite requires.
    static func value(of handle: OpaquePointer, at column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            return .text(text(of: handle, at: column))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, column) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// Copies a text column's bytes into a `String`.
    static func text(of handle: OpaquePointer, at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    // MARK: - Running

    /// Binds the arguments and runs the statement to completion, discarding any rows.
    ///
    /// The statement is reset afterwards, success or failure, so it holds no lock.
    ///
    /// - Parameter arguments: One value per parameter, in order.
    /// - Throws: ``SQLiteError`` if binding or execution fails.
    public func execute(_ arguments: [DatabaseValue] = []) throws {
        reset()
        defer { reset() }
        try bind(arguments)
        while try step() {}
    }

    /// Binds the arguments and maps every result row.
    ///
    /// - Parameters:
    ///   - arguments: One value per parameter, in order.
    ///   - map: Converts a row; its errors stop the iteration and are rethrown.
    /// - Returns: The mapped rows, in result order.
    /// - Throws: ``SQLiteError`` if binding or execution fails, or whatever `map` throws.
    public func fetchAll<T>(_ arguments: [DatabaseValue] = [], map: (Row) throws -> T) throws -> [T] {
        reset()
        defer { reset() }
        try bind(arguments)
        var results: [T] = []
        while try step() {
            results.append(try map(row()))
        }
        return results
    }

    /// Binds the arguments and reads every result row in place, without copying it into a
    /// ``Row``: see ``StatementRow``.
    ///
    /// - Parameters:
    ///   - arguments: One value per parameter, in order.
    ///   - body: Reads the current row; its errors stop the iteration and are rethrown.
    /// - Throws: ``SQLiteError`` if binding or execution fails, or whatever `body` throws.
    public func forEachRow(_ arguments: [DatabaseValue] = [], _ body: (borrowing StatementRow) throws -> Void) throws {
        reset()
        defer { reset() }
        try bind(arguments)
        while try step() {
            let handle = try liveHandle()
            try body(StatementRow(handle: handle))
        }
    }

    /// Binds the arguments and reads the first result row in place, if any; the rest are
    /// not computed.
    ///
    /// - Parameters:
    ///   - arguments: One value per parameter, in order.
    ///   - body: Reads the row.
    /// - Returns: What `body` returns, or `nil` if there is no row.
    /// - Throws: ``SQLiteError`` if binding or execution fails, or whatever `body` throws.
    public func withFirstRow<T>(_ arguments: [DatabaseValue] = [], _ body: (borrowing StatementRow) throws -> T) throws -> T? {
        reset()
        defer { reset() }
        try bind(arguments)
        guard try step() else { return nil }
        return try body(StatementRow(handle: try liveHandle()))
    }

    /// Binds the arguments and maps the first result row, if any.
    ///
    /// - Parameters:
    ///   - arguments: One value per parameter, in order.
    ///   - map: Converts the row.
    /// - Returns: The mapped first row, or `nil` if there is none.
    /// - Throws: ``SQLiteError`` if binding or execution fails, or whatever `map` throws.
    public func fetchOne<T>(_ arguments: [DatabaseValue] = [], map: (Row) throws -> T) throws -> T? {
        reset()
        defer { reset() }
        try bind(arguments)
        return try step() ? map(row()) : nil
    }
}
