/// What changed between the lines a page showed and the cart now, in the shopper's words:
/// "Trail Running Shoes now costs $138.00 (it was $128.00)." Nothing is placed until they have
/// seen the new lines.
struct ReviewChanges: Sendable {
    /// How much a change matters to someone about to pay, most first: a notice has room for
    /// few, and a price that went up must not be the one left out.
    private enum Weight: Int, Comparable {
        case price, gone, quantity, added

        static func < (lhs: Weight, rhs: Weight) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var changes: [(weight: Weight, sentence: String)] = []

    /// One sentence per change: prices (the lines' and the delivery's) first, then lines no
    /// longer available or no longer in the cart, then quantities, then lines added; each kind
    /// in the cart's order.
    var sentences: [String] {
        changes.enumerated().sorted { ($0.element.weight, $0.offset) < ($1.element.weight, $1.offset) }.map(\.element.sentence)
    }

    init(shown: [OrderPlacement.ShownLine], now cart: Cart, catalog: Catalog) {
        let before = Dictionary(shown.map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
        for item in cart.items {
            let name = item.product.name
            guard let was = before[item.product.id] else {
                if item.isAvailable { changes.append((.added, "\(name) was added to your cart.")) }
                continue
            }
            if !item.isAvailable {
                changes.append((.gone, "\(name) is no longer available."))
                continue
            }
            if item.product.price != was.unitPrice {
                changes.append((.price, "\(name) now costs \(item.product.price.formatted) (it was \(was.unitPrice.formatted))."))
            }
            if item.quantity != was.quantity {
                changes.append((.quantity, "You now have \(item.quantity) of \(name) (it was \(was.quantity))."))
            }
        }
        let held = Set(cart.items.map(\.product.id))
        for line in shown where !held.contains(line.productID) {
            let name = catalog.product(id: line.productID)?.name ?? "An item"
            changes.append((.gone, "\(name) is no longer in your cart."))
        }
    }

    /// Adds that delivery costs `now`, where the page showed `was`.
    mutating func deliveryChanged(now: Money, was: Money) {
        changes.append((.price, "Delivery now costs \(now == .zero ? "nothing" : now.formatted) (it was \(was.formatted))."))
    }

    /// The notice that leads the shopper back to check the order again: as many changes as a
    /// notice holds (``Notice/maximumLength``), whole and most weighty first, and how many more
    /// there are; Review shows the new lines and total.
    var notice: String {
        let sentences = sentences
        guard !sentences.isEmpty else {
            return "Your order changed since you saw it, so nothing was ordered. Please check it and place your order again."
        }
        let close = " Please check it again."
        var named = "Your order changed, so nothing was ordered:"
        for (index, sentence) in sentences.enumerated() {
            let longer = named + " " + sentence
            // The first is named even when it alone is too long: the notice is cut, not empty.
            guard index == 0 || longer.count + Self.more(sentences.count - index - 1).count + close.count <= Notice.maximumLength else {
                return named + Self.more(sentences.count - index) + close
            }
            named = longer
        }
        return named + close
    }

    private static func more(_ count: Int) -> String {
        count == 0 ? "" : " And \(count) more \(count == 1 ? "change" : "changes")."
    }
}
