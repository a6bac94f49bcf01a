import Foundation
import QuickCartClient
import Testing

@Suite("Money as the API writes it")
struct MoneyTests {
    @Test("Decimal strings read exactly into cents, and write back with two decimals")
    func reads() throws {
        let cases: [(String, Int64, String)] = [("24.50", 2450, "24.50"), ("24.5", 2450, "24.50"), ("1200", 120_000, "1200.00"),
                                                ("0.07", 7, "0.07"), ("-3.05", -305, "-3.05"), ("1000000.00", 100_000_000, "1000000.00")]
        for (text, cents, written) in cases {
            let money = try #require(Money(amount: text, currency: "USD"), "\(text)")
            #expect(money.minorUnits == cents && money.amountText == written, "\(text) → \(money)")
        }
        #expect(try #require(Money(amount: "0.10", currency: "USD")).amount * 3 == 0.3 as Decimal, "Decimal sums are exact")
    }

    @Test("Anything but a plain decimal with at most two decimals is refused", arguments: ["", "-", ".5", "24.", "24.505", "1e3", " 24.50", "24,50", "$24.50", "+1", "0x10", "1.2.3"])
    func refuses(text: String) {
        #expect(Money(amount: text, currency: "USD") == nil, "\(text)")
    }
}
