import QuickCart
import Testing

extension ShopTests {
    /// Money is whole cents, shown as US dollars.
    @Suite("Money") struct MoneyTests {
        @Test("Amounts read as US dollars with grouped thousands", arguments: [
            (Int64(0), "$0.00"), (5, "$0.05"), (10, "$0.10"), (99, "$0.99"), (100, "$1.00"), (2_450, "$24.50"),
            (17_700, "$177.00"), (99_999, "$999.99"), (100_000, "$1,000.00"), (123_450, "$1,234.50"),
            (10_000_000, "$100,000.00"), (100_000_000, "$1,000,000.00"), (-5, "-$0.05"), (-305, "-$3.05"),
            (-123_450, "-$1,234.50"), (Int64.max, "$92,233,720,368,547,758.07"), (Int64.min, "-$92,233,720,368,547,758.08"),
        ])
        func formatted(cents: Int64, expected: String) {
            #expect(Money(cents: cents).formatted == expected)
            #expect(Money(cents: cents).description == expected)
        }

        @Test("Sums and products are exact")
        func exactArithmetic() {
            #expect(Money(cents: 12_800) + Money(cents: 2_450) * 2 == Money(cents: 17_700))
            #expect((Money(cents: 12_800) + Money(cents: 2_450) * 2).formatted == "$177.00")
            // Where binary floating point drifts (0.1 + 0.2), cents do not.
            #expect(Money(cents: 10) + Money(cents: 20) == Money(cents: 30))
            let pennies = (0..<1_000).reduce(Money.zero) { total, _ in total + Money(cents: 1) }
            #expect(pennies == Money(cents: 1_000))
            #expect(pennies.formatted == "$10.00")
            #expect(Money(cents: 4_495) * 10 == Money(cents: 44_950))
            #expect(Money(cents: 1) < Money(cents: 2))
            #expect(Money.zero.formatted == "$0.00")
        }

        @Test("A cart's subtotal is the exact sum of its lines")
        func cartSubtotal() {
            func product(_ id: Int64, _ cents: Int64) -> Product {
                Product(id: id, slug: "p\(id)", name: "P\(id)", summary: "", category: "C", price: Money(cents: cents), icon: "shoe", isFeatured: false)
            }
            let demo = Cart(items: [Cart.Item(product: product(1, 12_800), quantity: 1), Cart.Item(product: product(2, 2_450), quantity: 2)])
            #expect(demo.subtotal == Money(cents: 17_700))
            #expect(demo.itemCount == 3)
            let awkward = Cart(items: [
                Cart.Item(product: product(1, 1), quantity: 10), Cart.Item(product: product(2, 4_495), quantity: 3),
                Cart.Item(product: product(3, 1_995), quantity: 7), Cart.Item(product: product(4, 149_900), quantity: 10),
            ])
            #expect(awkward.subtotal == Money(cents: 10 + 13_485 + 13_965 + 1_499_000))
            #expect(awkward.subtotal.formatted == "$15,264.60")
            #expect(Cart().subtotal == .zero)
            #expect(Cart.clamp(0) == 1 && Cart.clamp(11) == 10 && Cart.clamp(Int.min) == 1 && Cart.clamp(Int.max) == 10)
        }
    }
}
