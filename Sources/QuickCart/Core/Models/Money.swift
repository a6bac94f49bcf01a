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

    public static func + (lhs: Money, rhs: Money) -> Money {
        Money(cents: lhs.cents + rhs.cents)
    }

    public static func * (lhs: Money, rhs: Int) -> Money {
        Money(cents: lhs.cents * Int64(rhs))
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.cents < rhs.cents
    }

    /// The amount as shoppers read it: `$1,234.50`, `-$3.05`. Written by hand because
    /// Foundation's currency style depends on the machine's locale ("US$" on many).
    public var formatted: String {
        let magnitude = cents.magnitude
        let dollars = String(magnitude / 100)
        var grouped = ""
        for (index, digit) in dollars.enumerated() {
            if index > 0, (dollars.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let remainder = magnitude % 100
        return (cents < 0 ? "-$" : "$") + grouped + (remainder < 10 ? ".0" : ".") + String(remainder)
    }

    public var description: String { formatted }
}
