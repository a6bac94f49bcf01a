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

// MARK: - RawRepresentable

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
