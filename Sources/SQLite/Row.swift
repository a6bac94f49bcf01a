import RowDecoding

/// One result row, copied out of SQLite, with typed access by column index or name.
///
/// A `Row` owns its values, so it stays valid after the statement moves on and can be
/// returned from a pool's closure. Reads throw a ``RowDecodingError`` on NULL, a storage
/// class the requested type cannot represent, or an unknown column — never trap.
///
/// ```swift
/// let carts = try db.fetchAll("SELECT id, owner, note FROM carts WHERE owner = ?", [owner]) { row in
///     Cart(id: try row.int(0), owner: try row.string("owner"), note: try row["note"] as String?)
/// }
/// ```
///
/// Read a nullable column as an `Optional` type: `try row.get(2) as String?`. The typed
/// shorthands (`int`, `int64`, `double`, `string`, `bool`, `bytes`, `isNull`, by index or
/// name) are `ColumnRow`'s, which PostgreSQL's rows share.
public struct Row: ColumnRow, Sendable {
    /// The column values, in result order.
    public let values: [DatabaseValue]

    /// The column names, shared by every row of one statement execution.
    public let columns: ColumnNames

    /// Reads and converts the value at a column index.
    ///
    /// - Parameters:
    ///   - index: A zero-based column index.
    ///   - type: The type to convert to; usually inferred.
    /// - Returns: The converted value.
    /// - Throws: ``RowDecodingError`` if the index is out of range, the value is NULL and
    ///   `T` is not optional, or the value's storage class does not convert to `T`.
    @inlinable
    public func get<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        try decode(index, with: T.fromDatabaseValue)
    }

    /// Reads and converts the value of a named column.
    ///
    /// Names match exactly first, then case-insensitively as SQL does; when several
    /// columns share a name, the leftmost wins.
    ///
    /// - Parameters:
    ///   - name: A column name or alias.
    ///   - type: The type to convert to; usually inferred.
    /// - Returns: The converted value.
    /// - Throws: ``RowDecodingError`` if no column has that name, the value is NULL and
    ///   `T` is not optional, or the value's storage class does not convert to `T`.
    @inlinable
    public func get<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        try decode(name, with: T.fromDatabaseValue)
    }

    /// Reads and converts the value at a column index: `try row[0] as Int`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError``, as `get(_:as:)` does.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
        get throws { try get(index) }
    }

    /// Reads and converts the value of a named column: `try row["name"] as String`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Throws: ``RowDecodingError``, as `get(_:as:)` does.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ name: String) -> T {
        get throws { try get(name) }
    }
}
