// Conversions for standard-library types. They are strict on purpose: an integer column
// never silently yields a truncated Double-to-Int, and text is never parsed as a number,
// so a schema mismatch surfaces as a RowDecodingError instead of a wrong price.

// MARK: - DatabaseValue

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// Returns `value` unchanged; every value, NULL included, is a `DatabaseValue`.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: `value`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

// MARK: - Integers

/// Shared conversion for the integer types whose every value fits in an `Int64`.
extension DatabaseValueConvertible where Self: FixedWidthInteger {
    /// The integer as an ``DatabaseValue/integer(_:)``.
    public var databaseValue: DatabaseValue {
        .integer(Int64(self))
    }

    /// Reads an ``DatabaseValue/integer(_:)`` that fits this type.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The integer, or `nil` for other storage classes or out-of-range values.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        guard case .integer(let integer) = value else { return nil }
        return Self(exactly: integer)
    }
}

extension Int: DatabaseValueConvertible {}
extension Int64: DatabaseValueConvertible {}
extension Int32: DatabaseValueConvertible {}
extension Int16: DatabaseValueConvertible {}
extension Int8: DatabaseValueConvertible {}
extension UInt32: DatabaseValueConvertible {}
extension UInt16: DatabaseValueConvertible {}
extension UInt8: DatabaseValueConvertible {}

// MARK: - Floating point

extension Double: DatabaseValueConvertible {
    /// The number as a ``DatabaseValue/real(_:)``.
    public var databaseValue: DatabaseValue { .real(self) }

    /// Reads a ``DatabaseValue/real(_:)``, or an ``DatabaseValue/integer(_:)``, since
    /// SQLite stores whole REAL values as integers under NUMERIC affinity.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The number, or `nil` for other storage classes.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

extension Float: DatabaseValueConvertible {
    /// The number as a ``DatabaseValue/real(_:)``.
    public var databaseValue: DatabaseValue { .real(Double(self)) }

    /// Reads a number as ``Double`` does, then narrows it.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The number, or `nil` for other storage classes.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(value).map(Float.init)
    }
}

// MARK: - Bool

extension Bool: DatabaseValueConvertible {
    /// `1` or `0`, as SQLite has no Boolean storage class.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    /// Reads an integer: zero is `false`, anything else `true`.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The Boolean, or `nil` for other storage classes.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        guard case .integer(let integer) = value else { return nil }
        return integer != 0
    }
}

// MARK: - Text

extension String: DatabaseValueConvertible {
    /// The string as ``DatabaseValue/text(_:)``.
    public var databaseValue: DatabaseValue { .text(self) }

    /// Reads ``DatabaseValue/text(_:)``.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The string, or `nil` for other storage classes.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        guard case .text(let text) = value else { return nil }
        return text
    }
}

// MARK: - Bytes

extension Array: DatabaseValueConvertible where Element == UInt8 {
    /// The bytes as a ``DatabaseValue/blob(_:)``.
    public var databaseValue: DatabaseValue { .blob(self) }

    /// Reads a ``DatabaseValue/blob(_:)``, or the UTF-8 bytes of
    /// ``DatabaseValue/text(_:)``.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: The bytes, or `nil` for NULL and numbers.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        switch value {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}

// MARK: - Optional

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The wrapped value's database value, or ``DatabaseValue/null`` for `nil`.
    public var databaseValue: DatabaseValue {
        self?.databaseValue ?? .null
    }

    /// Reads NULL as `nil` and anything else as `Wrapped`.
    ///
    /// - Parameter value: A value read from the database.
    /// - Returns: `.some(nil)` for NULL, `.some(wrapped)` on success, and `nil` when the
    ///   value is not NULL but `Wrapped` cannot represent it.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map(Optional.some)
    }
}
