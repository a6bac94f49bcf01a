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
/// Read a nullable column as an `Optional` type: `try row.get(2) as String?`.
public struct Row: Sendable {
    /// The column values, in result order.
    public let values: [DatabaseValue]

    /// The column names, shared by every row of one statement execution.
    @usableFromInline
    let columns: ColumnNames

    init(values: [DatabaseValue], columns: ColumnNames) {
        self.values = values
        self.columns = columns
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The column names as SQLite reports them (the `AS` alias when given).
    public var columnNames: [String] { columns.names }

    // MARK: - Generic access

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
        guard values.indices.contains(index) else {
            throw RowDecodingError(.indexOutOfRange, column: index, name: nil, expected: T.self)
        }
        return try convert(values[index], column: index, to: T.self)
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
        guard let index = columns.index(of: name) else {
            throw RowDecodingError(.columnNotFound, column: nil, name: name, expected: T.self)
        }
        return try convert(values[index], column: index, to: T.self)
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

    // MARK: - Typed shorthands

    /// Reads an integer column as `Int`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    public func int(_ index: Int) throws -> Int { try get(index) }

    /// Reads an integer column as `Int`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or an unknown name.
    public func int(_ name: String) throws -> Int { try get(name) }

    /// Reads an integer column as `Int64`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    public func int64(_ index: Int) throws -> Int64 { try get(index) }

    /// Reads an integer column as `Int64`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or an unknown name.
    public func int64(_ name: String) throws -> Int64 { try get(name) }

    /// Reads a numeric column as `Double`; integers convert.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The number.
    /// - Throws: ``RowDecodingError`` on NULL, non-numeric values or a bad index.
    public func double(_ index: Int) throws -> Double { try get(index) }

    /// Reads a numeric column as `Double`; integers convert.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The number.
    /// - Throws: ``RowDecodingError`` on NULL, non-numeric values or an unknown name.
    public func double(_ name: String) throws -> Double { try get(name) }

    /// Reads a text column.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The string.
    /// - Throws: ``RowDecodingError`` on NULL, non-text values or a bad index.
    public func string(_ index: Int) throws -> String { try get(index) }

    /// Reads a text column.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The string.
    /// - Throws: ``RowDecodingError`` on NULL, non-text values or an unknown name.
    public func string(_ name: String) throws -> String { try get(name) }

    /// Reads an integer column as a Boolean: zero is `false`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The Boolean.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    public func bool(_ index: Int) throws -> Bool { try get(index) }

    /// Reads an integer column as a Boolean: zero is `false`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The Boolean.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or an unknown name.
    public func bool(_ name: String) throws -> Bool { try get(name) }

    /// Reads a blob column (or the UTF-8 bytes of a text column).
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The bytes.
    /// - Throws: ``RowDecodingError`` on NULL, numbers or a bad index.
    public func bytes(_ index: Int) throws -> [UInt8] { try get(index) }

    /// Reads a blob column (or the UTF-8 bytes of a text column).
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The bytes.
    /// - Throws: ``RowDecodingError`` on NULL, numbers or an unknown name.
    public func bytes(_ name: String) throws -> [UInt8] { try get(name) }

    /// Whether the value at a column index is NULL.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: `true` for NULL.
    /// - Throws: ``RowDecodingError`` if the index is out of range.
    public func isNull(_ index: Int) throws -> Bool { try get(index, as: DatabaseValue.self).isNull }

    /// Whether the value of a named column is NULL.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: `true` for NULL.
    /// - Throws: ``RowDecodingError`` if no column has that name.
    public func isNull(_ name: String) throws -> Bool { try get(name, as: DatabaseValue.self).isNull }

    // MARK: - Conversion

    @usableFromInline
    func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, column: Int, to type: T.Type) throws -> T {
        if let converted = T.fromDatabaseValue(value) {
            return converted
        }
        let reason: RowDecodingError.Reason = value.isNull ? .unexpectedNull : .typeMismatch(found: value.storageClass)
        throw RowDecodingError(reason, column: column, name: columns.names[column], expected: T.self)
    }
}
