/// A row's value could not be read as the requested type: what SQLite's and PostgreSQL's rows
/// throw alike (`SQLite.RowDecodingError`, `Postgres.PostgresRowDecodingError`).
///
/// The description names the column and the types involved, never the value itself,
/// which may be personal data.
public struct RowDecodingError: Error, CustomStringConvertible, Sendable {
    /// Why the read failed.
    public enum Reason: Sendable, Hashable {
        /// The column index is outside the row.
        case indexOutOfRange
        /// No column has the requested name.
        case columnNotFound
        /// The value is NULL but a non-optional type was requested.
        case unexpectedNull
        /// The value's kind (SQLite's storage class, such as `real`; PostgreSQL's, such as
        /// `numeric`) does not convert.
        case typeMismatch(found: String)
    }

    /// Why the read failed.
    public let reason: Reason

    /// The zero-based column index, when known.
    public let columnIndex: Int?

    /// The column name, when known.
    public let columnName: String?

    /// The requested Swift type, such as `Int` or `Optional<String>`.
    public let expectedType: String

    /// - Parameter expected: The requested type, named in the description.
    public init<T>(_ reason: Reason, column: Int?, name: String?, expected: T.Type) {
        self.reason = reason
        self.columnIndex = column
        self.columnName = name
        self.expectedType = String(describing: expected)
    }

    /// The error for a value that did not convert to `expected`: ``Reason/unexpectedNull`` for
    /// NULL, otherwise ``Reason/typeMismatch(found:)`` naming the value's kind.
    ///
    /// - Parameters:
    ///   - value: The value read.
    ///   - column: Its zero-based column index.
    ///   - name: Its column name, when known.
    ///   - expected: The requested type, named in the description.
    public init<Value: ColumnValue, T>(unconvertible value: Value, column: Int, name: String?, expected: T.Type) {
        self.init(value.isNull ? .unexpectedNull : .typeMismatch(found: value.kindName), column: column, name: name, expected: expected)
    }

    /// For example: `cannot read column 2 "price" as Int: found text`.
    public var description: String {
        var column = "column"
        if let columnIndex { column += " \(columnIndex)" }
        if let columnName { column += " \"\(columnName)\"" }
        let problem = switch reason {
        case .indexOutOfRange: "no such column index"
        case .columnNotFound: "no column of that name"
        case .unexpectedNull: "found NULL"
        case .typeMismatch(let kind): "found \(kind)"
        }
        return "cannot read \(column) as \(expectedType): \(problem)"
    }
}
