import CPostgres
import RowDecoding

extension PostgresConnection {
    // MARK: - Executing

    /// Runs a script of zero or more statements separated by semicolons, such as a schema,
    /// with the simple query protocol.
    ///
    /// Nothing is prepared and no arguments are bound, so never build the script from
    /// user input. Without an explicit transaction, the statements commit one by one.
    ///
    /// ```swift
    /// try connection.execute(sql: """
    ///     CREATE TABLE carts (id bigserial PRIMARY KEY, owner text NOT NULL);
    ///     CREATE INDEX carts_owner ON carts (owner);
    ///     """)
    /// ```
    ///
    /// - Parameter script: The SQL text.
    /// - Throws: ``PostgresError`` for the first statement that fails.
    public func execute(sql script: String) throws {
        PQclear(try exchange(operation: Operation.execute, sql: script) { PQsendQuery($0, script) })
    }

    /// Runs one statement with positional arguments, discarding any rows.
    ///
    /// ```swift
    /// try connection.execute("UPDATE carts SET note = $1 WHERE id = $2", note, cartID)
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    /// - Returns: The number of rows the statement inserted, updated, deleted or returned
    ///   (`PQcmdTuples`); 0 for statements without a count.
    /// - Throws: ``PostgresError`` if preparation or execution fails, or (misuse) on an
    ///   argument count mismatch.
    @discardableResult
    public func execute(_ sql: String, _ arguments: (any PostgresValueConvertible)?...) throws -> Int {
        try execute(sql, arguments: Self.values(arguments))
    }

    /// Runs one statement with positional arguments, discarding any rows.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter.
    /// - Returns: The number of rows the statement inserted, updated, deleted or returned;
    ///   0 for statements without a count.
    /// - Throws: ``PostgresError`` if preparation or execution fails.
    @discardableResult
    public func execute(_ sql: String, arguments: [PostgresValue]) throws -> Int {
        let result = try run(sql, arguments: arguments)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    // MARK: - Fetching

    /// Runs a query and maps every row.
    ///
    /// ```swift
    /// let names = try connection.fetchAll("SELECT name FROM products WHERE price < $1", limit) { row in
    ///     try row.string(0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - map: Converts a row; its errors stop the mapping and are rethrown.
    /// - Returns: The mapped rows, in result order.
    /// - Throws: ``PostgresError`` if the query fails, or whatever `map` throws.
    public func fetchAll<T>(_ sql: String, _ arguments: (any PostgresValueConvertible)?..., map: (PostgresRow) throws -> T) throws -> [T] {
        try fetchAll(sql, arguments: Self.values(arguments), map: map)
    }

    /// Runs a query and maps every row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter.
    ///   - map: Converts a row; its errors stop the mapping and are rethrown.
    /// - Returns: The mapped rows, in result order.
    /// - Throws: ``PostgresError`` if the query fails, or whatever `map` throws.
    public func fetchAll<T>(_ sql: String, arguments: [PostgresValue], map: (PostgresRow) throws -> T) throws -> [T] {
        let result = try run(sql, arguments: arguments)
        defer { PQclear(result) }
        let rowCount = PQntuples(result)
        guard rowCount > 0 else { return [] }
        let columns = Self.columns(of: result)
        var rows: [T] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            rows.append(try map(Self.row(row, of: result, columns: columns)))
        }
        return rows
    }

    /// Runs a query and returns every row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    /// - Returns: The rows, in result order.
    /// - Throws: ``PostgresError`` if the query fails.
    public func fetchAll(_ sql: String, _ arguments: (any PostgresValueConvertible)?...) throws -> [PostgresRow] {
        try fetchAll(sql, arguments: Self.values(arguments)) { $0 }
    }

    /// Runs a query and maps its first row. Add `LIMIT 1` if it could return many: the
    /// server computes them all.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - map: Converts the row.
    /// - Returns: The mapped row, or `nil` if the query returned none.
    /// - Throws: ``PostgresError`` if the query fails, or whatever `map` throws.
    public func fetchOne<T>(_ sql: String, _ arguments: (any PostgresValueConvertible)?..., map: (PostgresRow) throws -> T) throws -> T? {
        try fetchOne(sql, arguments: Self.values(arguments), map: map)
    }

    /// Runs a query and maps its first row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter.
    ///   - map: Converts the row.
    /// - Returns: The mapped row, or `nil` if the query returned none.
    /// - Throws: ``PostgresError`` if the query fails, or whatever `map` throws.
    public func fetchOne<T>(_ sql: String, arguments: [PostgresValue], map: (PostgresRow) throws -> T) throws -> T? {
        let result = try run(sql, arguments: arguments)
        defer { PQclear(result) }
        guard PQntuples(result) > 0 else { return nil }
        return try map(Self.row(0, of: result, columns: Self.columns(of: result)))
    }

    /// Runs a query and returns its first row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    /// - Returns: The first row, or `nil` if there is none.
    /// - Throws: ``PostgresError`` if the query fails.
    public func fetchOne(_ sql: String, _ arguments: (any PostgresValueConvertible)?...) throws -> PostgresRow? {
        try fetchOne(sql, arguments: Self.values(arguments)) { $0 }
    }

    /// Runs a query and reads the first column of its first row.
    ///
    /// ```swift
    /// let total: Int? = try connection.fetchValue("SELECT sum(qty) FROM cart_items WHERE cart_id = $1", id)
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The value, or `nil` if there is no row or the value is NULL.
    /// - Throws: ``PostgresError`` if the query fails; ``PostgresRowDecodingError`` if the
    ///   value does not convert to `T`.
    public func fetchValue<T: PostgresValueConvertible>(
        _ sql: String,
        _ arguments: (any PostgresValueConvertible)?...,
        as type: T.Type = T.self
    ) throws -> T? {
        try fetchValue(sql, arguments: Self.values(arguments), as: type)
    }

    /// Runs a query and reads the first column of its first row.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `$1`, `$2`, ... parameters.
    ///   - arguments: One value per parameter.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The value, or `nil` if there is no row or the value is NULL.
    /// - Throws: ``PostgresError`` if the query fails; ``PostgresRowDecodingError`` if the
    ///   value does not convert to `T`.
    public func fetchValue<T: PostgresValueConvertible>(
        _ sql: String,
        arguments: [PostgresValue],
        as type: T.Type = T.self
    ) throws -> T? {
        let value = try fetchOne(sql, arguments: arguments) { row in try row.get(0, as: T?.self) }
        return value ?? nil
    }

    // MARK: - Reading results

    private static func values(_ arguments: [(any PostgresValueConvertible)?]) -> [PostgresValue] {
        arguments.map { $0?.postgresValue ?? .null }
    }

    private static func columns(of result: OpaquePointer) -> ColumnNames {
        let count = PQnfields(result)
        return ColumnNames(names: (0..<count).map { column in
            PQfname(result, column).map { String(cString: $0) } ?? ""
        })
    }

    /// Copies one row out of the result, which is cleared right after.
    private static func row(_ row: Int32, of result: OpaquePointer, columns: ColumnNames) -> PostgresRow {
        var values: [PostgresValue] = []
        values.reserveCapacity(columns.names.count)
        for column in 0..<Int32(columns.names.count) {
            guard PQgetisnull(result, row, column) == 0, let text = PQgetvalue(result, row, column) else {
                values.append(.null)
                continue
            }
            let length = Int(PQgetlength(result, row, column))
            let value = text.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                PostgresValue.decode(text: UnsafeBufferPointer(start: bytes, count: length), typeOID: PQftype(result, column))
            }
            values.append(value)
        }
        return PostgresRow(values: values, columns: columns)
    }
}
