/// One result row that owns its values, read by column index or name: SQLite's `Row` and
/// PostgreSQL's `PostgresRow`.
///
/// Everything a row does with its values is written here once: finding a column, the errors
/// (a bad index, an unknown name, NULL, a value of another kind; never a trap) and the typed
/// shorthands. A backend's row adds only its generic `get`, which converts through the
/// backend's own convertible protocol by way of ``decode(_:with:)-(Int,_)``.
///
/// The extension's members are `@inlinable`, so a caller's reads are specialised for the
/// concrete row and value types.
public protocol ColumnRow {
    /// The backend's value type.
    associatedtype Value: ColumnValue

    /// The column values, in result order.
    var values: [Value] { get }

    /// The column names, shared by every row of one result.
    var columns: ColumnNames { get }
}

extension ColumnRow {
    /// The number of columns.
    @inlinable
    public var count: Int { values.count }

    /// The column names as the database reports them (the `AS` alias when given).
    @inlinable
    public var columnNames: [String] { columns.names }

    // MARK: - Reading with a conversion

    /// Reads the value at a column index and converts it with `convert`.
    ///
    /// - Parameters:
    ///   - index: A zero-based column index.
    ///   - convert: The conversion; `nil` means the value does not convert.
    /// - Returns: The converted value.
    /// - Throws: ``RowDecodingError`` if the index is out of range, or `convert` returns `nil`
    ///   (`unexpectedNull` for NULL, otherwise `typeMismatch`).
    @inlinable
    public func decode<T>(_ index: Int, with convert: (Value) -> T?) throws -> T {
        guard values.indices.contains(index) else {
            throw RowDecodingError(.indexOutOfRange, column: index, name: nil, expected: T.self)
        }
        return try decode(values[index], column: index, with: convert)
    }

    /// Reads the value of a named column and converts it with `convert`.
    ///
    /// Names match exactly first, then case-insensitively as SQL does; when several columns
    /// share a name, the leftmost wins.
    ///
    /// - Parameters:
    ///   - name: A column name or alias.
    ///   - convert: The conversion; `nil` means the value does not convert.
    /// - Returns: The converted value.
    /// - Throws: ``RowDecodingError`` if no column has that name, or `convert` returns `nil`.
    @inlinable
    public func decode<T>(_ name: String, with convert: (Value) -> T?) throws -> T {
        guard let index = columns.index(of: name) else {
            throw RowDecodingError(.columnNotFound, column: nil, name: name, expected: T.self)
        }
        return try decode(values[index], column: index, with: convert)
    }

    @inlinable
    func decode<T>(_ value: Value, column: Int, with convert: (Value) -> T?) throws -> T {
        if let converted = convert(value) {
            return converted
        }
        throw RowDecodingError(unconvertible: value, column: column, name: columns.names[column], expected: T.self)
    }

    // MARK: - Typed shorthands

    /// Reads an integer column as `Int`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    @inlinable public func int(_ index: Int) throws -> Int { try decode(index, with: Int.fromColumnValue) }

    /// Reads an integer column as `Int`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or an unknown name.
    @inlinable public func int(_ name: String) throws -> Int { try decode(name, with: Int.fromColumnValue) }

    /// Reads an integer column as `Int64`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    @inlinable public func int64(_ index: Int) throws -> Int64 { try decode(index, with: Int64.fromColumnValue) }

    /// Reads an integer column as `Int64`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The integer.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or an unknown name.
    @inlinable public func int64(_ name: String) throws -> Int64 { try decode(name, with: Int64.fromColumnValue) }

    /// Reads a numeric column as `Double`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The number.
    /// - Throws: ``RowDecodingError`` on NULL, non-numeric values or a bad index.
    @inlinable public func double(_ index: Int) throws -> Double { try decode(index, with: Double.fromColumnValue) }

    /// Reads a numeric column as `Double`.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The number.
    /// - Throws: ``RowDecodingError`` on NULL, non-numeric values or an unknown name.
    @inlinable public func double(_ name: String) throws -> Double { try decode(name, with: Double.fromColumnValue) }

    /// Reads a text column.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The string.
    /// - Throws: ``RowDecodingError`` on NULL, non-text values or a bad index.
    @inlinable public func string(_ index: Int) throws -> String { try decode(index, with: String.fromColumnValue) }

    /// Reads a text column.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The string.
    /// - Throws: ``RowDecodingError`` on NULL, non-text values or an unknown name.
    @inlinable public func string(_ name: String) throws -> String { try decode(name, with: String.fromColumnValue) }

    /// Reads a Boolean column.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The Boolean.
    /// - Throws: ``RowDecodingError`` on NULL, other values or a bad index.
    @inlinable public func bool(_ index: Int) throws -> Bool { try decode(index, with: Bool.fromColumnValue) }

    /// Reads a Boolean column.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The Boolean.
    /// - Throws: ``RowDecodingError`` on NULL, other values or an unknown name.
    @inlinable public func bool(_ name: String) throws -> Bool { try decode(name, with: Bool.fromColumnValue) }

    /// Reads a bytes column (or the UTF-8 bytes of a text column).
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: The bytes.
    /// - Throws: ``RowDecodingError`` on NULL, numbers or a bad index.
    @inlinable public func bytes(_ index: Int) throws -> [UInt8] { try decode(index, with: [UInt8].fromColumnValue) }

    /// Reads a bytes column (or the UTF-8 bytes of a text column).
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: The bytes.
    /// - Throws: ``RowDecodingError`` on NULL, numbers or an unknown name.
    @inlinable public func bytes(_ name: String) throws -> [UInt8] { try decode(name, with: [UInt8].fromColumnValue) }

    /// Whether the value at a column index is NULL.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Returns: `true` for NULL.
    /// - Throws: ``RowDecodingError`` if the index is out of range.
    @inlinable public func isNull(_ index: Int) throws -> Bool { try decode(index, with: { Optional($0) }).isNull }

    /// Whether the value of a named column is NULL.
    ///
    /// - Parameter name: A column name or alias.
    /// - Returns: `true` for NULL.
    /// - Throws: ``RowDecodingError`` if no column has that name.
    @inlinable public func isNull(_ name: String) throws -> Bool { try decode(name, with: { Optional($0) }).isNull }
}
