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
/// Read a nullable column as an `Optional` type: `try row.get(2) as String?`.
public struct PostgresRow: Sendable {
    /// The column values, in result order.
    public let values: [PostgresValue]

    /// The column names, shared by every row of one result.
    @usableFromInline
    let columns: ColumnNames

    init(values: [PostgresValue], columns: ColumnNames) {
        self.values = values
        self.columns = columns
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The column names as PostgreSQL reports them (the `AS` alias when given).
    public var columnNames: [String] { columns.names }

    // MARK: - Generic access

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
        guard values.indices.contains(index) else {
            throw PostgresRowDecodingError(.indexOutOfRange, column: index, name: nil, expected: T.self)
        }
        return try convert(values[index], column: index, to: T.self)
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
        guard let index = columns.index(of: name) else {
            throw PostgresRowDecodingError(.columnNotFound, column: nil, name: name, expected: T.self)
        }
        return try convert(values[index], column: index, to: T.self)
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

    // MARK: - Typed shorthands

    /// Reads an integer column (or a whole `numeric`) as `Int`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The integer.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-integer values or a bad index.
    public func int(_ index: Int) throws -> Int { try get(index) }

    /// Reads an integer column (or a whole `numeric`) as `Int`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The integer.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-integer values or an unknown name.
    public func int(_ name: String) throws -> Int { try get(name) }

    /// Reads an integer column (or a whole `numeric`) as `Int64`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The integer.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-integer values or a bad index.
    public func int64(_ index: Int) throws -> Int64 { try get(index) }

    /// Reads an integer column (or a whole `numeric`) as `Int64`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The integer.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-integer values or an unknown name.
    public func int64(_ name: String) throws -> Int64 { try get(name) }

    /// Reads a numeric column as `Double`; integers and `numeric` convert.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The number.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-numeric values or a bad index.
    public func double(_ index: Int) throws -> Double { try get(index) }

    /// Reads a numeric column as `Double`; integers and `numeric` convert.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The number.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-numeric values or an unknown name.
    public func double(_ name: String) throws -> Double { try get(name) }

    /// Reads a text column (any type PostgreSQL returns as text: `text`, `timestamptz`, ...).
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The string.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-text values or a bad index.
    public func string(_ index: Int) throws -> String { try get(index) }

    /// Reads a text column (any type PostgreSQL returns as text: `text`, `timestamptz`, ...).
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The string.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, non-text values or an unknown name.
    public func string(_ name: String) throws -> String { try get(name) }

    /// Reads a `boolean` column (or an integer: zero is `false`).
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The Boolean.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, other values or a bad index.
    public func bool(_ index: Int) throws -> Bool { try get(index) }

    /// Reads a `boolean` column (or an integer: zero is `false`).
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The Boolean.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, other values or an unknown name.
    public func bool(_ name: String) throws -> Bool { try get(name) }

    /// Reads a `bytea` column (or the UTF-8 bytes of a text column).
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The bytes.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, numbers or a bad index.
    public func bytes(_ index: Int) throws -> [UInt8] { try get(index) }

    /// Reads a `bytea` column (or the UTF-8 bytes of a text column).
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The bytes.
    /// - Throws: ``PostgresRowDecodingError`` on NULL, numbers or an unknown name.
    public func bytes(_ name: String) throws -> [UInt8] { try get(name) }

    /// Whether the value at a column index is NULL.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: `true` for NULL.
    /// - Throws: ``PostgresRowDecodingError`` if the index is out of range.
    public func isNull(_ index: Int) throws -> Bool { try get(index, as: PostgresValue.self).isNull }

    /// Whether the value of a named column is NULL.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: `true` for NULL.
    /// - Throws: ``PostgresRowDecodingError`` if no column has that name.
    public func isNull(_ name: String) throws -> Bool { try get(name, as: PostgresValue.self).isNull }

    // MARK: - Conversion

    @usableFromInline
    func convert<T: PostgresValueConvertible>(_ value: PostgresValue, column: Int, to type: T.Type) throws -> T {
        if let converted = T.fromPostgresValue(value) {
            return converted
        }
        let reason: PostgresRowDecodingError.Reason = value.isNull ? .unexpectedNull : .typeMismatch(found: value.kindName)
        throw PostgresRowDecodingError(reason, column: column, name: columns.names[column], expected: T.self)
    }
}
