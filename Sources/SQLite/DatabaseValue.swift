import RowDecoding

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
    @inlinable
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

// MARK: - SQLite's kinds and Swift's

/// How SQLite's storage classes meet Swift's types, which every conversion (the standard
/// library's, literals, a ``Row``'s shorthands) follows.
extension DatabaseValue: ColumnValue {
    /// The ``storageClass``.
    public var kindName: String { storageClass }

    /// An ``integer(_:)``.
    ///
    /// - Parameter int64: The integer.
    @inlinable public init(int64: Int64) { self = .integer(int64) }

    /// A ``real(_:)``.
    ///
    /// - Parameter double: The number.
    @inlinable public init(double: Double) { self = .real(double) }

    /// A ``text(_:)``.
    ///
    /// - Parameter string: The text.
    @inlinable public init(string: String) { self = .text(string) }

    /// An ``integer(_:)``, 1 or 0, as SQLite has no Boolean storage class.
    ///
    /// - Parameter bool: The Boolean.
    @inlinable public init(bool: Bool) { self = .integer(bool ? 1 : 0) }

    /// A ``blob(_:)``.
    ///
    /// - Parameter bytes: The bytes.
    @inlinable public init(bytes: [UInt8]) { self = .blob(bytes) }

    /// An ``integer(_:)``'s value.
    @inlinable
    public var int64Value: Int64? {
        guard case .integer(let integer) = self else { return nil }
        return integer
    }

    /// A ``real(_:)``'s value, or an ``integer(_:)``'s, since SQLite stores whole REAL
    /// values as integers under NUMERIC affinity.
    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }

    /// A ``text(_:)``'s value.
    @inlinable
    public var stringValue: String? {
        guard case .text(let text) = self else { return nil }
        return text
    }

    /// An ``integer(_:)`` as a Boolean, as SQLite has no Boolean storage class: zero is
    /// `false`, anything else `true`.
    @inlinable
    public var boolValue: Bool? { int64Value.map { $0 != 0 } }

    /// A ``blob(_:)``'s bytes, or the UTF-8 bytes of ``text(_:)``.
    @inlinable
    public var bytesValue: [UInt8]? {
        switch self {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}
