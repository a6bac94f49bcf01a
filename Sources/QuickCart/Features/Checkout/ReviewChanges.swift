/// What changed between the lines a page showed and the cart now, in the shopper's words:
/// "Trail Running Shoes now costs $138.00 (it was $128.00)." Nothing is placed until they have
/// seen the new lines.
struct ReviewChanges: Sendable, Equatable {
    /// One sentence per changed line, in the cart's order, then the lines no longer there.
    let sentences: [String]

    init(shown: [OrderPlacement.ShownLine], now cart: Cart, catalog: Catalog) {
        var sentences: [String] = []
        let before = Dictionary(shown.map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
        for item in cart.items {
            let name = item.product.name
            guard let was = before[item.product.id] else {
                if item.isAvailable { sentences.append("\(name) was added to your cart.") }
                continue
            }
            if !item.isAvailable {
                sentences.append("\(name) is no longer available.")
                continue
            }
            if item.product.price != was.unitPrice {
                sentences.append("\(name) now costs \(item.product.price.formatted) (it was \(was.unitPrice.formatted)).")
            }
            if item.quantity != was.quantity {
                sentences.append("You now have \(item.quantity) of \(name) (it was \(was.quantity)).")
            }
        }
        let held = Set(cart.items.map(\.product.id))
        for line in shown where !held.contains(line.productID) {
            let name = catalog.product(id: line.productID)?.name ?? "An item"
            sentences.append("\(name) is no longer in your cart.")
        }
        self.sentences = sentences
    }

    /// The notice that leads the shopper back to check the cart again.
    var notice: String { Self.notice(sentences) }

    /// The notice naming the first of `changes` (a notice is short; the page shows the rest).
    static func notice(_ changes: [String]) -> String {
        let lead = "Your order changed since you saw it, so nothing was ordered"
        guard let first = changes.first else { return lead + ". Please check it and place your order again." }
        return lead + ": " + first + (changes.count > 1 ? " (and more)" : "") + " Please check it again."
    }
}
