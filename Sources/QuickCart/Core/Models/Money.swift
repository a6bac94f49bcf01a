/// An exact amount of US dollars, kept in whole cents.
///
/// Money never touches floating point: prices, line totals and subtotals are sums and
/// products of whole cents.
/// ```swift
/// let subtotal = Money(cents: 12_800) + Money(cents: 2_450) * 2
/// subtotal.formatted // "$177.00"
/// ```
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The amount in cents.
    public var cents: Int64

    /// Creates an amount from whole cents.
    public init(cents: Int64) {
        self.cents = cents
    }

    /// Nothing.
    public static let zero = Money(cents: 0)

    /// The sum of two amounts, exact to the cent.
    public static func + (lhs: Money, rhs: Money) -> Money {
        Money(cents: lhs.cents + rhs.cents)
    }

    /// `lhs` taken `rhs` times (a unit price times a quantity), exact to the cent.
    public static func * (lhs: Money, rhs: Int) -> Money {
        Money(cents: lhs.cents * Int64(rhs))
    }

    /// Whether `lhs` is the smaller amount.
    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.cents < rhs.cents
    }

    /// The amount as shoppers read it: `$1,234.50`, `-$3.05`. Written by hand because
    /// Foundation's currency style depends on the machine's locale ("US$" on many).
    public var formatted: String {
        withFormattedUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with ``formatted``'s UTF-8, written backwards into a stack buffer: pages
    /// show many prices, and this keeps each one free of intermediate strings ("-$", 20 digits,
    /// 6 commas and ".cc" fit).
    public func withFormattedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var start = buffer.count
            func put(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            let magnitude = cents.magnitude
            put(UInt8(ascii: "0") + UInt8(magnitude % 10))
            put(UInt8(ascii: "0") + UInt8(magnitude / 10 % 10))
            put(UInt8(ascii: "."))
            var dollars = magnitude / 100
            var written = 0
            repeat {
                if written > 0, written % 3 == 0 { put(UInt8(ascii: ",")) }
                put(UInt8(ascii: "0") + UInt8(dollars % 10))
                dollars /= 10
                written += 1
            } while dollars > 0
            put(UInt8(ascii: "$"))
            if cents < 0 { put(UInt8(ascii: "-")) }
            return body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    public var description: String { formatted }
}
