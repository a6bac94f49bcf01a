/// A value as SQLite stores it: one of its five storage classes.
///
/// Arguments are bound as `DatabaseValue`s and rows are read into them, so the bytes are
/// always copied out of SQLite's buffers before a C call returns.
///
/// Literals make argument lists short:
///
/// ```swift
/// try db.execute("INSERT INTO items (sku, qty, note) VALUES (?, ?, ?)",
///                arguments: ["A-1", 3, .null])
/// ```
public enum DatabaseValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double. SQLite stores NaN as NULL.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// Whether this is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The storage class name as SQLite's `typeof()` spells it: `null`, `integer`, `real`,
    /// `text` or `blob`. Used in error messages instead of the value itself.
    public var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}

// MARK: - Literals

extension DatabaseValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    /// Creates an ``integer(_:)`` value from an integer literal.
    ///
    /// - Parameter value: The literal.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    /// Creates a ``real(_:)`` value from a floating-point literal.
    ///
    /// - Parameter value: The literal.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }

    /// Creates a ``text(_:)`` value from a string literal.
    ///
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) {
        self = .text(value)
    }

    /// Creates an ``integer(_:)`` value, 1 or 0, from a Boolean literal, as SQLite has no
    /// Boolean storage class.
    ///
    /// - Parameter value: The literal.
    public init(booleanLiteral value: Bool) {
        self = .integer(value ? 1 : 0)
    }
}
