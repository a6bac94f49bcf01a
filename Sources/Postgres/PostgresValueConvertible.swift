import RowDecoding

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

// MARK: - The standard library

/// The standard library's types convert as `ColumnValueConvertible` says, through
/// ``PostgresValue``'s accessors.
extension PostgresValueConvertible where Self: ColumnValueConvertible {
    /// The value as PostgreSQL takes it.
    @inlinable
    public var postgresValue: PostgresValue { columnValue() }

    /// Converts a value read back.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The converted value, or `nil` for NULL or a kind this type cannot represent.
    @inlinable
    public static func fromPostgresValue(_ value: PostgresValue) -> Self? { fromColumnValue(value) }
}

extension Int: PostgresValueConvertible {}
extension Int64: PostgresValueConvertible {}
extension Int32: PostgresValueConvertible {}
extension Int16: PostgresValueConvertible {}
extension Double: PostgresValueConvertible {}
extension Bool: PostgresValueConvertible {}
extension String: PostgresValueConvertible {}
extension Array: PostgresValueConvertible where Element == UInt8 {}

// MARK: - PostgresValue, Optional, RawRepresentable

extension PostgresValue: PostgresValueConvertible {
    /// The value itself.
    public var postgresValue: PostgresValue { self }

    /// The value itself; reading a `PostgresValue` never fails, NULL included.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: `value`.
    public static func fromPostgresValue(_ value: PostgresValue) -> PostgresValue? { value }
}

extension Optional: PostgresValueConvertible where Wrapped: PostgresValueConvertible {
    /// The wrapped value's PostgreSQL value, or NULL.
    @inlinable
    public var postgresValue: PostgresValue {
        columnValue { $0.postgresValue }
    }

    /// Reads NULL as `.some(nil)` and anything else as the wrapped type.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: `.some(nil)` for NULL, `.some(wrapped)` if it converts, or `nil` (failure)
    ///   if it does not.
    @inlinable
    public static func fromPostgresValue(_ value: PostgresValue) -> Wrapped?? {
        fromColumnValue(value) { Wrapped.fromPostgresValue($0) }
    }
}

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
