/// Queries that return rows: every row mapped, each row read in place, the first row, one value.
extension Database {
    /// Runs a query and maps every row.
    ///
    /// ```swift
    /// let names = try db.fetchAll("SELECT name FROM products WHERE price < ?", [limit]) { row in
    ///     try row.string(0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - map: Converts a row; its errors stop the query and are rethrown.
    /// - Returns: The mapped rows, in result order.
    /// - Throws: ``SQLiteError`` if the query fails, or whatever `map` throws.
    public func fetchAll<T>(_ sql: String, _ arguments: StatementArguments = [], map: (Row) throws -> T) throws -> [T] {
        try statementForRunning(sql).fetchAll(arguments.values, map: map)
    }

    /// Runs a query and reads every row in place, without copying it into a ``Row``: the
    /// cheapest way to read a hot query (see ``StatementRow``).
    ///
    /// ```swift
    /// var names: [String] = []
    /// try db.forEachRow("SELECT name FROM products WHERE price < ?", [limit]) { row in
    ///     names.append(try row.string(0))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - body: Reads the current row; its errors stop the query and are rethrown.
    /// - Throws: ``SQLiteError`` if the query fails, or whatever `body` throws.
    public func forEachRow(_ sql: String, _ arguments: StatementArguments = [], _ body: (borrowing StatementRow) throws -> Void) throws {
        try statementForRunning(sql).forEachRow(arguments.values, body)
    }

    /// Runs a query and reads its first row in place; the rest are not computed.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - body: Reads the row.
    /// - Returns: What `body` returns, or `nil` if the query returned no row.
    /// - Throws: ``SQLiteError`` if the query fails, or whatever `body` throws.
    public func withFirstRow<T>(_ sql: String, _ arguments: StatementArguments = [], _ body: (borrowing StatementRow) throws -> T) throws -> T? {
        try statementForRunning(sql).withFirstRow(arguments.values, body)
    }

    /// Runs a query and returns every row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    /// - Returns: The rows, in result order.
    /// - Throws: ``SQLiteError`` if the query fails.
    public func fetchAll(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try fetchAll(sql, arguments) { $0 }
    }

    /// Runs a query and maps its first row; the rest are not computed.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - map: Converts the row.
    /// - Returns: The mapped row, or `nil` if the query returned none.
    /// - Throws: ``SQLiteError`` if the query fails, or whatever `map` throws.
    public func fetchOne<T>(_ sql: String, _ arguments: StatementArguments = [], map: (Row) throws -> T) throws -> T? {
        try statementForRunning(sql).fetchOne(arguments.values, map: map)
    }

    /// Runs a query and returns its first row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    /// - Returns: The first row, or `nil` if there is none.
    /// - Throws: ``SQLiteError`` if the query fails.
    public func fetchOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try fetchOne(sql, arguments) { $0 }
    }

    /// Runs a query and reads the first column of its first row.
    ///
    /// ```swift
    /// let total: Int? = try db.fetchValue("SELECT sum(qty) FROM cart_items WHERE cart_id = ?", [id])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The value, or `nil` if there is no row or the value is NULL.
    /// - Throws: ``SQLiteError`` if the query fails; ``RowDecodingError`` if the value
    ///   does not convert to `T`.
    public func fetchValue<T: DatabaseValueConvertible>(
        _ sql: String,
        _ arguments: StatementArguments = [],
        as type: T.Type = T.self
    ) throws -> T? {
        let value = try withFirstRow(sql, arguments) { row in try row.get(0, as: T?.self) }
        return value ?? nil
    }
}
