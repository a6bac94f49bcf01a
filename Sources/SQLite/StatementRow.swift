import CSQLite
import RowDecoding

/// The current row of a running statement, read in place.
///
/// Each read converts one column straight from SQLite's buffers: no ``Row``, no array of
/// ``DatabaseValue``s and no column names are built, so a hot query pays only for the
/// columns it reads (a text column is decoded into a `String` once, when read). Reads follow
/// ``Row``'s strict conversions and throw the same ``RowDecodingError``s.
///
/// It is lent, borrowed, to the closure of ``Database/forEachRow(_:_:_:)``,
/// ``Database/withFirstRow(_:_:_:)`` or their ``Statement`` counterparts, and being
/// non-copyable it cannot outlive the step it belongs to:
///
/// ```swift
/// var total = 0
/// try db.forEachRow("SELECT quantity, note FROM cart_items WHERE cart_id = ?", [cartID]) { row in
///     total += try row.int(0)
/// }
/// ```
public struct StatementRow: ~Copyable {
    private let handle: OpaquePointer

    /// The number of columns.
    public let count: Int

    init(handle: OpaquePointer) {
        self.handle = handle
        count = Int(sqlite3_column_count(handle))
    }

    // MARK: - Typed reads

    /// Reads an integer column as `Int64`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    public func int64(_ index: Int) throws -> Int64 {
        let column = try position(of: index, expecting: Int64.self)
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER else { throw mismatch(at: column, expected: Int64.self) }
        return sqlite3_column_int64(handle, column)
    }

    /// Reads an integer column as `Int`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    public func int(_ index: Int) throws -> Int {
        let column = try position(of: index, expecting: Int.self)
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER, let value = Int(exactly: sqlite3_column_int64(handle, column)) else {
            throw mismatch(at: column, expected: Int.self)
        }
        return value
    }

    /// Reads an integer column as a Boolean: zero is `false`.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError`` on NULL, non-integer values or a bad index.
    public func bool(_ index: Int) throws -> Bool {
        let column = try position(of: index, expecting: Bool.self)
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER else { throw mismatch(at: column, expected: Bool.self) }
        return sqlite3_column_int64(handle, column) != 0
    }

    /// Reads a numeric column as `Double`; integers convert.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError`` on NULL, non-numeric values or a bad index.
    public func double(_ index: Int) throws -> Double {
        let column = try position(of: index, expecting: Double.self)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_FLOAT: return sqlite3_column_double(handle, column)
        case SQLITE_INTEGER: return Double(sqlite3_column_int64(handle, column))
        default: throw mismatch(at: column, expected: Double.self)
        }
    }

    /// Reads a text column.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError`` on NULL, non-text values or a bad index.
    public func string(_ index: Int) throws -> String {
        let column = try position(of: index, expecting: String.self)
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { throw mismatch(at: column, expected: String.self) }
        return text(at: column)
    }

    /// Whether the value at a column index is NULL.
    ///
    /// - Parameter index: A zero-based column index.
    /// - Throws: ``RowDecodingError`` if the index is out of range.
    public func isNull(_ index: Int) throws -> Bool {
        sqlite3_column_type(handle, try position(of: index, expecting: DatabaseValue.self)) == SQLITE_NULL
    }

    // MARK: - Generic access

    /// Reads and converts the value at a column index, as ``Row/get(_:as:)-(Int,_)`` does.
    ///
    /// - Parameters:
    ///   - index: A zero-based column index.
    ///   - type: The type to convert to; usually inferred.
    /// - Throws: ``RowDecodingError`` if the index is out of range, the value is NULL and
    ///   `T` is not optional, or the value's storage class does not convert to `T`.
    public func get<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        let column = try position(of: index, expecting: T.self)
        guard let converted = T.fromDatabaseValue(value(at: column)) else { throw mismatch(at: column, expected: T.self) }
        return converted
    }

    // MARK: - Internals

    /// The C column index of `index`, checked against the row's width.
    private func position<T>(of index: Int, expecting type: T.Type) throws -> Int32 {
        guard index >= 0, index < count else {
            throw RowDecodingError(.indexOutOfRange, column: index, name: nil, expected: T.self)
        }
        return Int32(index)
    }

    private func text(at column: Int32) -> String {
        Statement.text(of: handle, at: column)
    }

    private func value(at column: Int32) -> DatabaseValue {
        Statement.value(of: handle, at: column)
    }

    /// The error for a value that does not convert to `T`; the column's name is looked up
    /// only now, on the failing path.
    private func mismatch<T>(at column: Int32, expected: T.Type) -> RowDecodingError {
        let name = sqlite3_column_name(handle, column).map { String(cString: $0) }
        return RowDecodingError(unconvertible: value(at: column), column: Int(column), name: name, expected: T.self)
    }
}
