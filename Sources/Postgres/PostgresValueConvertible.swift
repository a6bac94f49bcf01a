/// A type that converts to and from a ``PostgresValue``, so it can be bound as a query
/// parameter and read from a ``PostgresRow``.
///
/// `Int`, `Int64`, `Int32`, `Int16`, `Double`, `String`, `Bool`, `[UInt8]`, ``PostgresValue``
/// and `Optional` conform already. A `RawRepresentable` type whose raw value conforms gets
/// the conformance for free:
///
/// ```swift
/// enum OrderStatus: String, PostgresValueConvertible {
///     case open, paid, shipped
/// }
/// let status: OrderStatus = try row["status"]
/// ```
public protocol PostgresValueConvertible {
    /// The value to send.
    var postgresValue: PostgresValue { get }

    /// Converts a value read back.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The converted value, or `nil` if `value` is NULL (for non-optional types)
    ///   or of a kind this type cannot represent.
    static func fromPostgresValue(_ value: PostgresValue) -> Self?
}

// MARK: - RawRepresentable

extension PostgresValueConvertible where Self: RawRepresentable, RawValue: PostgresValueConvertible {
    /// The raw value's PostgreSQL value.
    public var postgresValue: PostgresValue {
        rawValue.postgresValue
    }

    /// Converts the raw value read back, then looks up the case.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The matching instance, or `nil` if the raw value does not convert or
    ///   names no instance.
    public static func fromPostgresValue(_ value: PostgresValue) -> Self? {
        RawValue.fromPostgresValue(value).flatMap(Self.init(rawValue:))
    }
}
