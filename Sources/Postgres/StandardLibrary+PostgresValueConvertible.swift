// The standard library's conformances to PostgresValueConvertible, in one place.

extension PostgresValue: PostgresValueConvertible {
    /// The value itself.
    public var postgresValue: PostgresValue { self }

    /// The value itself; reading a `PostgresValue` never fails, NULL included.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: `value`.
    public static func fromPostgresValue(_ value: PostgresValue) -> PostgresValue? { value }
}

extension Int64: PostgresValueConvertible {
    /// An ``PostgresValue/integer(_:)`` value.
    public var postgresValue: PostgresValue { .integer(self) }

    /// Reads an integer, or a `numeric` holding a whole number that fits.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The integer, or `nil` for anything else.
    public static func fromPostgresValue(_ value: PostgresValue) -> Int64? {
        switch value {
        case .integer(let integer): integer
        case .numeric(let text): Int64(text)
        default: nil
        }
    }
}

/// Shared conversion for the integer types whose every value fits in an `Int64`: sent as an
/// ``PostgresValue/integer(_:)``, read as `Int64` reads (a `numeric` of a whole number too) when it fits.
extension PostgresValueConvertible where Self: FixedWidthInteger {
    /// An ``PostgresValue/integer(_:)`` value.
    public var postgresValue: PostgresValue { .integer(Int64(self)) }

    /// Reads an integer, as `Int64` does, that fits this type.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The integer, or `nil` for anything else.
    public static func fromPostgresValue(_ value: PostgresValue) -> Self? {
        Int64.fromPostgresValue(value).flatMap { Self(exactly: $0) }
    }
}

extension Int: PostgresValueConvertible {}
extension Int32: PostgresValueConvertible {}
extension Int16: PostgresValueConvertible {}

extension Double: PostgresValueConvertible {
    /// A ``PostgresValue/double(_:)`` value.
    public var postgresValue: PostgresValue { .double(self) }

    /// Reads a floating-point number, an integer, or a `numeric` (rounded).
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The number, or `nil` for anything else.
    public static func fromPostgresValue(_ value: PostgresValue) -> Double? {
        switch value {
        case .double(let double): double
        case .integer(let integer): Double(integer)
        case .numeric(let text): Double(text)
        default: nil
        }
    }
}

extension String: PostgresValueConvertible {
    /// A ``PostgresValue/text(_:)`` value.
    public var postgresValue: PostgresValue { .text(self) }

    /// Reads text, or a `numeric`'s exact decimal text.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The string, or `nil` for anything else.
    public static func fromPostgresValue(_ value: PostgresValue) -> String? {
        switch value {
        case .text(let text), .numeric(let text): text
        default: nil
        }
    }
}

extension Bool: PostgresValueConvertible {
    /// A ``PostgresValue/bool(_:)`` value.
    public var postgresValue: PostgresValue { .bool(self) }

    /// Reads a Boolean, or an integer (zero is `false`).
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The Boolean, or `nil` for anything else.
    public static func fromPostgresValue(_ value: PostgresValue) -> Bool? {
        switch value {
        case .bool(let bool): bool
        case .integer(let integer): integer != 0
        default: nil
        }
    }
}

extension Array: PostgresValueConvertible where Element == UInt8 {
    /// A ``PostgresValue/bytes(_:)`` value.
    public var postgresValue: PostgresValue { .bytes(self) }

    /// Reads `bytea`, or the UTF-8 bytes of text.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: The bytes, or `nil` for anything else.
    public static func fromPostgresValue(_ value: PostgresValue) -> [UInt8]? {
        switch value {
        case .bytes(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}

extension Optional: PostgresValueConvertible where Wrapped: PostgresValueConvertible {
    /// The wrapped value's PostgreSQL value, or NULL.
    public var postgresValue: PostgresValue {
        self?.postgresValue ?? .null
    }

    /// Reads NULL as `.some(nil)` and anything else as the wrapped type.
    ///
    /// - Parameter value: A value read from a result.
    /// - Returns: `.some(nil)` for NULL, `.some(wrapped)` if it converts, or `nil` (failure)
    ///   if it does not.
    public static func fromPostgresValue(_ value: PostgresValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromPostgresValue(value).map(Optional.some)
    }
}
