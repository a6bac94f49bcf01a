/// A standard-library type that converts to and from every backend's ``ColumnValue`` by one
/// rule, written here once in terms of the value's accessors (``ColumnValue/int64Value``, …).
///
/// The conversions are strict on purpose: an integer never comes from a truncated
/// floating-point number and text is never parsed as a number (unless a backend's own value
/// is exact decimal text), so a schema mismatch surfaces as a ``RowDecodingError`` instead of
/// a wrong price. A backend's own convertible protocol (`DatabaseValueConvertible`,
/// `PostgresValueConvertible`) takes these conversions for the types it lists.
public protocol ColumnValueConvertible {
    /// The value to send.
    func columnValue<Value: ColumnValue>() -> Value

    /// Converts a value read back.
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The converted value, or `nil` if `value` is NULL or of a kind this type
    ///   cannot represent.
    static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> Self?
}

// MARK: - Integers

/// The integer types whose every value fits in an `Int64`; `UInt` and `UInt64` do not conform.
extension ColumnValueConvertible where Self: FixedWidthInteger {
    /// The integer as an `Int64`.
    @inlinable
    public func columnValue<Value: ColumnValue>() -> Value {
        Value(int64: Int64(self))
    }

    /// Reads an integer that fits this type.
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The integer, or `nil` for anything else or an out-of-range value.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> Self? {
        value.int64Value.flatMap { Self(exactly: $0) }
    }
}

extension Int: ColumnValueConvertible {}
extension Int64: ColumnValueConvertible {}
extension Int32: ColumnValueConvertible {}
extension Int16: ColumnValueConvertible {}
extension Int8: ColumnValueConvertible {}
extension UInt32: ColumnValueConvertible {}
extension UInt16: ColumnValueConvertible {}
extension UInt8: ColumnValueConvertible {}

// MARK: - Floating point

extension Double: ColumnValueConvertible {
    /// The number as a `Double`.
    @inlinable
    public func columnValue<Value: ColumnValue>() -> Value {
        Value(double: self)
    }

    /// Reads a number.
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The number, or `nil` for anything else.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> Double? {
        value.doubleValue
    }
}

extension Float: ColumnValueConvertible {
    /// The number as a `Double`.
    @inlinable
    public func columnValue<Value: ColumnValue>() -> Value {
        Value(double: Double(self))
    }

    /// Reads a number as `Double` does, then narrows it.
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The number, or `nil` for anything else.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> Float? {
        value.doubleValue.map(Float.init)
    }
}

// MARK: - Bool, text, bytes

extension Bool: ColumnValueConvertible {
    /// The Boolean as the backend sends one.
    @inlinable
    public func columnValue<Value: ColumnValue>() -> Value {
        Value(bool: self)
    }

    /// Reads a Boolean as the backend reads one.
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The Boolean, or `nil` for anything else.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> Bool? {
        value.boolValue
    }
}

extension String: ColumnValueConvertible {
    /// The string as text.
    @inlinable
    public func columnValue<Value: ColumnValue>() -> Value {
        Value(string: self)
    }

    /// Reads text.
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The string, or `nil` for anything else.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> String? {
        value.stringValue
    }
}

extension Array: ColumnValueConvertible where Element == UInt8 {
    /// The bytes as bytes.
    @inlinable
    public func columnValue<Value: ColumnValue>() -> Value {
        Value(bytes: self)
    }

    /// Reads bytes (or the UTF-8 bytes of text, as the backend allows).
    ///
    /// - Parameter value: A value read from a row.
    /// - Returns: The bytes, or `nil` for anything else.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value) -> [UInt8]? {
        value.bytesValue
    }
}

// MARK: - Optional

/// How every backend converts an optional, for its own convertible protocol's `Optional`
/// conformance (whose wrapped types need not be ``ColumnValueConvertible``).
extension Optional {
    /// The wrapped value as `convert` sends it, or NULL for `nil`.
    ///
    /// - Parameter convert: The wrapped type's conversion.
    @inlinable
    public func columnValue<Value: ColumnValue>(wrapped convert: (Wrapped) -> Value) -> Value {
        guard let self else { return .null }
        return convert(self)
    }

    /// Reads NULL as `nil` and anything else as `convert` reads it.
    ///
    /// - Parameters:
    ///   - value: A value read from a row.
    ///   - convert: The wrapped type's conversion.
    /// - Returns: `.some(nil)` for NULL, `.some(wrapped)` if it converts, and `nil` (failure)
    ///   when the value is not NULL but `Wrapped` cannot represent it.
    @inlinable
    public static func fromColumnValue<Value: ColumnValue>(_ value: Value, wrapped convert: (Value) -> Wrapped?) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return convert(value).map(Optional.some)
    }
}
