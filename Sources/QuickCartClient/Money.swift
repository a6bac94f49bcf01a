import Foundation

/// An exact amount of money as the API writes it: `{"amount": "24.50", "currency": "USD"}`.
///
/// The amount is kept in whole minor units (cents), read from the decimal string digit by
/// digit, so it never passes through floating point. ``amount`` gives it as a `Decimal` for
/// formatting with `Decimal.FormatStyle.Currency`.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount in minor units: `2450` for `"24.50"`.
    public let minorUnits: Int64
    /// The ISO 4217 currency code, e.g. `"USD"`.
    public let currency: String

    /// Creates an amount of `minorUnits` hundredths of `currency`.
    public init(minorUnits: Int64, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Reads a decimal string with at most two decimals (`"24.50"`, `"24.5"`, `"1200"`,
    /// `"-3.05"`); `nil` for anything else, including exponents, spaces and separators.
    public init?(amount text: String, currency: String) {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 15, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = parts.count > 1 ? parts[1] : ""
        guard parts.count == 1 || (1...2).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit),
              let units = Int64(whole), let hundredths = Int64(fraction.padding(toLength: 2, withPad: "0", startingAt: 0))
        else { return nil }
        let value = units * 100 + hundredths
        self.init(minorUnits: negative ? -value : value, currency: currency)
    }

    /// The amount as an exact `Decimal`: `24.5` for `"24.50"`.
    public var amount: Decimal {
        Decimal(minorUnits) / 100
    }

    /// The amount as the API writes it, always with two decimals: `"24.50"`.
    public var amountText: String {
        let magnitude = minorUnits.magnitude
        let cents = magnitude % 100
        return (minorUnits < 0 ? "-" : "") + "\(magnitude / 100)." + (cents < 10 ? "0" : "") + "\(cents)"
    }

    /// `"24.50 USD"`.
    public var description: String { "\(amountText) \(currency)" }

    private enum CodingKeys: String, CodingKey {
        case amount, currency
    }

    /// Reads `{"amount": "24.50", "currency": "USD"}`, refusing an amount ``init(amount:currency:)`` refuses.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .amount)
        let currency = try container.decode(String.self, forKey: .currency)
        guard let money = Money(amount: text, currency: currency) else {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: "not a decimal amount with at most two decimals: \(text)")
        }
        self = money
    }

    /// Writes the amount as a string with two decimals, as the API does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amountText, forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
