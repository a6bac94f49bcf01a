import RowDecoding

/// A value sent to or read from PostgreSQL.
///
/// Parameters travel in PostgreSQL's text format and the server infers their types from
/// the SQL (cast with `$1::bigint` where it cannot). Result columns are decoded by their
/// type: `smallint`/`integer`/`bigint`/`oid` read as ``integer(_:)``, `real`/`double
/// precision` as ``double(_:)``, `numeric` as ``numeric(_:)`` (exact, so `sum(bigint)`
/// still reads as an `Int`), `boolean` as ``bool(_:)``, `bytea` as ``bytes(_:)``, and
/// every other type as its text (`timestamptz`, `uuid`, `json`, ...).
///
/// ```swift
/// try connection.execute("INSERT INTO items (sku, qty, note) VALUES ($1, $2, $3)",
///                        arguments: ["A-1", 3, .null])
/// ```
public enum PostgresValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double; NaN and the infinities round-trip.
    case double(Double)
    /// A `numeric` value in PostgreSQL's exact decimal text, such as `"12.50"`.
    case numeric(String)
    /// A Boolean.
    case bool(Bool)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes (`bytea`).
    case bytes([UInt8])

    /// Whether this is SQL NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The case name, used in error messages instead of the value itself.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .double: "double"
        case .numeric: "numeric"
        case .bool: "bool"
        case .text: "text"
        case .bytes: "bytes"
        }
    }

    // MARK: - Text format

    /// The parameter in PostgreSQL's text format, or `nil` for NULL.
    var textFormat: String? {
        switch self {
        case .null:
            return nil
        case .integer(let integer):
            return String(integer)
        case .double(let double):
            if double.isNaN { return "NaN" }
            if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
            // Swift prints the shortest text that reads back to the same Double.
            return "\(double)"
        case .numeric(let text), .text(let text):
            return text
        case .bool(let bool):
            return bool ? "t" : "f"
        case .bytes(let bytes):
            return Self.hexEncodedBytea(bytes)
        }
    }

    /// Decodes a result column's text by the column's type OID.
    static func decode(text: UnsafeBufferPointer<UInt8>, typeOID: UInt32) -> PostgresValue {
        let string = String(decoding: text, as: UTF8.self)
        switch typeOID {
        case TypeOID.int2, TypeOID.int4, TypeOID.int8, TypeOID.oid:
            return Int64(string).map(PostgresValue.integer) ?? .text(string)
        case TypeOID.float4, TypeOID.float8:
            return Double(string).map(PostgresValue.double) ?? .text(string)
        case TypeOID.numeric:
            return .numeric(string)
        case TypeOID.bool:
            return .bool(string == "t")
        case TypeOID.bytea:
            return hexDecodedBytea(text).map(PostgresValue.bytes) ?? .text(string)
        default:
            return .text(string)
        }
    }

    /// The built-in type OIDs decoded specially (from `pg_type.dat`; they never change).
    private enum TypeOID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let oid: UInt32 = 26
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let numeric: UInt32 = 1700
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `bytea`'s hex input format: `\x` then two hex digits per byte.
    private static func hexEncodedBytea(_ bytes: [UInt8]) -> String {
        var utf8: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        utf8.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            utf8.append(hexDigits[Int(byte >> 4)])
            utf8.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `bytea`'s hex output format, the default since PostgreSQL 9.0 (`bytea_output = hex`).
    private static func hexDecodedBytea(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count >= 2, text.count % 2 == 0, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2 - 1)
        var index = 2
        while index < text.count {
            guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

// MARK: - PostgreSQL's kinds and Swift's

/// How PostgreSQL's values meet Swift's types, which every conversion (the standard library's,
/// literals, a ``PostgresRow``'s shorthands) follows.
extension PostgresValue: ColumnValue {
    /// An ``integer(_:)``.
    ///
    /// - Parameter int64: The integer.
    @inlinable public init(int64: Int64) { self = .integer(int64) }

    /// A ``double(_:)``.
    ///
    /// - Parameter double: The number.
    @inlinable public init(double: Double) { self = .double(double) }

    /// A ``text(_:)``.
    ///
    /// - Parameter string: The text.
    @inlinable public init(string: String) { self = .text(string) }

    /// A ``bool(_:)``.
    ///
    /// - Parameter bool: The Boolean.
    @inlinable public init(bool: Bool) { self = .bool(bool) }

    /// A ``bytes(_:)`` value.
    ///
    /// - Parameter bytes: The bytes.
    @inlinable public init(bytes: [UInt8]) { self = .bytes(bytes) }

    /// An ``integer(_:)``'s value, or a ``numeric(_:)`` holding a whole number that fits.
    @inlinable
    public var int64Value: Int64? {
        switch self {
        case .integer(let integer): integer
        case .numeric(let text): Int64(text)
        default: nil
        }
    }

    /// A ``double(_:)``'s value, an ``integer(_:)``'s, or a ``numeric(_:)``'s (rounded).
    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .double(let double): double
        case .integer(let integer): Double(integer)
        case .numeric(let text): Double(text)
        default: nil
        }
    }

    /// A ``text(_:)``'s value, or a ``numeric(_:)``'s exact decimal text.
    @inlinable
    public var stringValue: String? {
        switch self {
        case .text(let text), .numeric(let text): text
        default: nil
        }
    }

    /// A ``bool(_:)``'s value, or an ``integer(_:)``'s (zero is `false`).
    @inlinable
    public var boolValue: Bool? {
        switch self {
        case .bool(let bool): bool
        case .integer(let integer): integer != 0
        default: nil
        }
    }

    /// A ``bytes(_:)`` value's bytes, or the UTF-8 bytes of ``text(_:)``.
    @inlinable
    public var bytesValue: [UInt8]? {
        switch self {
        case .bytes(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}
