import RowDecoding

/// A type that converts to and from a ``DatabaseValue``, so it can be bound as a
/// statement argument and read from a ``Row``.
///
/// `Int`, `Int8`…`Int64`, `UInt8`…`UInt32` (not `UInt` or `UInt64`, which may not fit in
/// `Int64`), `Double`, `Float`, `String`, `Bool`, `[UInt8]`
/// and `Optional` conform already. A `RawRepresentable` type whose raw value conforms
/// gets the conformance for free:
///
/// ```swift
/// enum OrderStatus: String, DatabaseValueConvertible {
///     case open, paid, shipped
/// }
/// let status: OrderStatus = try row["status"]
/// ```
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// Converts a stored value back.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The converted value, or `nil` if `value` is NULL (for non-optional
    ///   types) or of a storage class this type cannot represent.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

// MARK: - The standard library

/// The standard library's types convert as `ColumnValueConvertible` says, through
/// ``DatabaseValue``'s accessors.
extension DatabaseValueConvertible where Self: ColumnValueConvertible {
    /// The value as SQLite stores it.
    @inlinable
    public var databaseValue: DatabaseValue { columnValue() }

    /// Converts a stored value back.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The converted value, or `nil` for NULL or a storage class this type
    ///   cannot represent.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? { fromColumnValue(value) }
}

extension Int: DatabaseValueConvertible {}
extension Int64: DatabaseValueConvertible {}
extension Int32: DatabaseValueConvertible {}
extension Int16: DatabaseValueConvertible {}
extension Int8: DatabaseValueConvertible {}
extension UInt32: DatabaseValueConvertible {}
extension UInt16: DatabaseValueConvertible {}
extension UInt8: DatabaseValueConvertible {}
extension Double: DatabaseValueConvertible {}
extension Float: DatabaseValueConvertible {}
extension Bool: DatabaseValueConvertible {}
extension String: DatabaseValueConvertible {}
extension Array: DatabaseValueConvertible where Element == UInt8 {}

// MARK: - DatabaseValue, Optional, RawRepresentable

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// Returns `value` unchanged; every value, NULL included, is a `DatabaseValue`.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: `value`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The wrapped value's database value, or ``DatabaseValue/null`` for `nil`.
    @inlinable
    public var databaseValue: DatabaseValue {
        columnValue { $0.databaseValue }
    }

    /// Reads NULL as `nil` and anything else as `Wrapped`.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: `.some(nil)` for NULL, `.some(wrapped)` on success, and `nil` when the
    ///   value is not NULL but `Wrapped` cannot represent it.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        fromColumnValue(value) { Wrapped.fromDatabaseValue($0) }
    }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The raw value's database value.
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }

    /// Converts the stored raw value, then looks up the case.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The matching instance, or `nil` if the raw value is not convertible or
    ///   names no instance.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
}
