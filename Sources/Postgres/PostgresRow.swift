import RowDecoding

/// One result row, copied out of libpq, with typed access by column index or name.
///
/// A `PostgresRow` owns its values, so it stays valid after the query and can be returned
/// from a pool's closure. Reads throw a ``PostgresRowDecodingError`` on NULL, a value the
/// requested type cannot represent, or an unknown column — never trap.
///
/// ```swift
/// let carts = try connection.fetchAll("SELECT id, owner, note FROM carts WHERE owner = $1", owner) { row in
///     Cart(id: try row.int(0), owner: try row.string("owner"), note: try row["note"] as String?)
/// }
/// ```
///
/// Read a nullable column as an `Optional` type: `try row.get(2) as String?`. The typed
/// shorthands (`int`, `int64`, `double`, `string`, `bool`, `bytes`, `isNull`, by index or
/// name) are `ColumnRow`'s, which SQLite's rows share; they read as ``PostgresValue``'s
/// accessors do (a whole `numeric` as an integer, any type PostgreSQL returns as text as a
/// string, an integer as a Boolean).
public struct PostgresRow: ColumnRow, Sendable {
    /// The column values, in result order.
    public let values: [PostgresValue]

    /// The column names, shared by every row of one result.
    public let columns: ColumnNames

    /// Reads and converts the value at a column index.
    ///
    /// - Parameters:
    ///   - index: A zero-based column index.
    ///   - type: The type to convert to; usually inferred.
    /// - Returns: The converted value.
    /// - Throws: ``PostgresRowDecodingError`` if the index is out of range, the value is
    ///   NULL and `T` is not optional, or the value does not convert to `T`.
    @inlinable
    public func get<T: PostgresValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        try decode(index, with: T.fromPostgresValue)
    }

    /// Reads and converts the value of a named column.
    ///
    /// Names match exactly first, then case-insensitively; when several columns share a
    /// name, the leftmost wins.
    ///
    /// - Parameters:
    ///   - name: A column name or alias.
    ///   - type: The type to convert to; usually inferred.
    /// - Returns: The converted value.
    /// - Throws: ``PostgresRowDecodingError`` if no column has that name, the value is
    ///   NULL and `T` is not optional, or the value does not convert to `T`.
    @inlinable
    public func get<T: PostgresValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        try decode(name, with: T.fromPostgresValue)
    }

    /// Reads and converts the value at a column index: `try row[0] as Int`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``PostgresRowDecodingError``, as `get(_:as:)` does.
    @inlinable
    public subscript<T: PostgresValueConvertible>(_ index: Int) -> T {
        get throws { try get(index) }
    }

    /// Reads and converts the value of a named column: `try row["name"] as String`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Throws: ``PostgresRowDecodingError``, as `get(_:as:)` does.
    @inlinable
    public subscript<T: PostgresValueConvertible>(_ name: String) -> T {
        get throws { try get(name) }
    }
}
