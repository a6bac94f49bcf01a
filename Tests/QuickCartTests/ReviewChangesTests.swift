@testable import QuickCart
import Testing

/// The notice a refused Place order leaves names what changed, within a notice's length.
@Suite("Review changes")
struct ReviewChangesTests {
    private static func product(_ id: Int64, _ name: String, cents: Int64, isActive: Bool = true) -> Product {
        Product(id: id, slug: "p\(id)", name: name, summary: "", category: "Tools", price: Money(cents: cents), icon: "cart", isFeatured: false, isActive: isActive)
    }

    private static func shown(_ product: Product, cents: Int64? = nil, quantity: Int = 1) -> OrderPlacement.ShownLine {
        OrderPlacement.ShownLine(productID: product.id, unitPrice: Money(cents: cents ?? product.price.cents), quantity: quantity)
    }

    @Test("A price that went up is named before a line no longer available, and both fit")
    func priceFirst() {
        let hammer = Self.product(1, "Hammer", cents: 2450, isActive: false), drill = Self.product(2, "Drill", cents: 10999)
        let cart = Cart(items: [Cart.Item(product: hammer, quantity: 1), Cart.Item(product: drill, quantity: 1)])
        let changes = ReviewChanges(shown: [Self.shown(hammer), Self.shown(drill, cents: 9999)], now: cart, catalog: Catalog(products: [hammer, drill]))
        #expect(changes.sentences == ["Drill now costs $109.99 (it was $99.99).", "Hammer is no longer available."])
        #expect(changes.notice == "Your order changed, so nothing was ordered: Drill now costs $109.99 (it was $99.99). Hammer is no longer available. Please check it again.")
    }

    @Test("Changes past a notice's length are counted, whole sentences only, the delivery's price among the first")
    func counted() {
        let products = (1...6).map { Self.product(Int64($0), "Insulated Water Bottle \($0)", cents: 2000) }
        let cart = Cart(items: products.map { Cart.Item(product: $0, quantity: 3) })
        var changes = ReviewChanges(shown: products.map { Self.shown($0, quantity: 2) }, now: cart, catalog: Catalog(products: products))
        changes.deliveryChanged(now: .zero, was: Money(cents: 495))
        let notice = changes.notice
        #expect(notice.count <= Notice.maximumLength, "\(notice.count): \(notice)")
        #expect(notice.hasPrefix("Your order changed, so nothing was ordered: Delivery now costs nothing (it was $4.95). You now have 3 of Insulated Water Bottle 1 (it was 2)."), "\(notice)")
        #expect(notice.hasSuffix(" more changes. Please check it again."), "\(notice)")
        let named = changes.sentences.filter { notice.contains($0) }.count
        #expect(notice.contains("And \(7 - named) more changes."), "\(notice)")
    }

    @Test("Without a change it names, the notice still says nothing was ordered")
    func none() {
        let mug = Self.product(3, "Mug", cents: 500)
        let changes = ReviewChanges(shown: [Self.shown(mug)], now: Cart(items: [Cart.Item(product: mug, quantity: 1)]), catalog: Catalog(products: [mug]))
        #expect(changes.sentences.isEmpty)
        #expect(changes.notice == "Your order changed since you saw it, so nothing was ordered. Please check it and place your order again.")
    }
}
