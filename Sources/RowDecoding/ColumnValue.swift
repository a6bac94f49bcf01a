/// A value as one database's rows hold it and its statements take it: SQLite's
/// `DatabaseValue`, PostgreSQL's `PostgresValue`.
///
/// Each backend says here, once, how its kinds of value meet Swift's: which of its values read
/// as an integer, a number, text, a Boolean or bytes, and which value each of those is sent as.
/// The standard library's conversions (``ColumnValueConvertible``), literals and the shorthands
/// of a ``ColumnRow`` are written once on top, so the two backends cannot drift apart.
public protocol ColumnValue: Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
where IntegerLiteralType == Int64, FloatLiteralType == Double, StringLiteralType == String, BooleanLiteralType == Bool {
    /// SQL NULL.
    static var null: Self { get }

    /// Whether this is SQL NULL.
    var isNull: Bool { get }

    /// The name of the value's kind, such as `integer` or `text`: what a ``RowDecodingError``
    /// names instead of the value itself, which may be personal data.
    var kindName: String { get }

    /// The value an integer is sent as.
    init(int64: Int64)
    /// The value a floating-point number is sent as.
    init(double: Double)
    /// The value a string is sent as.
    init(string: String)
    /// The value a Boolean is sent as.
    init(bool: Bool)
    /// The value bytes are sent as.
    init(bytes: [UInt8])

    /// The value read as an integer, or `nil` if it is not one.
    var int64Value: Int64? { get }
    /// The value read as a floating-point number, or `nil` if it is not one.
    var doubleValue: Double? { get }
    /// The value read as text, or `nil` if it is not text.
    var stringValue: String? { get }
    /// The value read as a Boolean, or `nil` if it is not one.
    var boolValue: Bool? { get }
    /// The value read as bytes, or `nil` if it is not bytes.
    var bytesValue: [UInt8]? { get }
}

// MARK: - Literals

/// A literal is the value its Swift type is sent as, so argument lists stay short:
/// `["A-1", 3, .null]`.
extension ColumnValue {
    /// The value an integer literal's `Int64` is sent as.
    ///
    /// - Parameter value: The literal.
    @inlinable public init(integerLiteral value: Int64) { self.init(int64: value) }

    /// The value a floating-point literal's `Double` is sent as.
    ///
    /// - Parameter value: The literal.
    @inlinable public init(floatLiteral value: Double) { self.init(double: value) }

    /// The value a string literal is sent as.
    ///
    /// - Parameter value: The literal.
    @inlinable public init(stringLiteral value: String) { self.init(string: value) }

    /// The value a Boolean literal is sent as.
    ///
    /// - Parameter value: The literal.
    @inlinable public init(booleanLiteral value: Bool) { self.init(bool: value) }
}
