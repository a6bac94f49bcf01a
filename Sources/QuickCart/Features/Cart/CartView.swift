import Mustache

/// The Cart tab (`cart.mustache`, `partials/cart-contents`): a row per item, the count,
/// subtotal and checkout.
struct CartView: PageView {
    let items: [CartRowView]
    /// Counts and sums only the lines still for sale (``Cart/itemCount``, ``Cart/subtotal``).
    let count: Int
    let subtotal: Money
    let canCheckout: Bool

    init(cart: Cart, cards: ProductCards) {
        // By index, reading only what a row needs: an item holds a whole product, large to copy.
        var items: [CartRowView] = []
        items.reserveCapacity(cart.items.count)
        for position in cart.items.indices {
            let card = cards.card(for: cart.items[position].product)
            items.append(CartRowView(
                card: card, quantity: cart.items[position].quantity, lineTotal: cart.items[position].lineTotal,
                isAvailable: cart.items[position].isAvailable, photo: ProductPhotoView(card.photo, position: position)
            ))
        }
        self.items = items
        count = cart.itemCount
        subtotal = cart.subtotal
        canCheckout = cart.canCheckout
    }

    static let templateName = "cart"
    static let mustacheFields: MustacheFields<CartView> = [
        "items": .list(\.items),
        "hasItems": .bool { !$0.items.isEmpty },
        "count": .int(\.count),
        "subtotal": .money(\.subtotal),
        "canCheckout": .bool(\.canCheckout),
        "hasUnavailable": .bool { $0.items.contains { !$0.isAvailable } },
    ]
}

/// One item of the cart, with its quantity stepper and remove button.
struct CartRowView: MustacheView {
    /// The product as the catalog shows it, made once.
    let card: ProductCard
    let quantity: Int
    let lineTotal: Money
    /// False once an import took the product off sale: the row says so and cannot be increased.
    let isAvailable: Bool
    /// Its photo; the icon shows when it has none.
    let photo: ProductPhotoView?

    static let mustacheFields: MustacheFields<CartRowView> = [
        "id": .int(\.card.id),
        "name": .text(\.card.name),
        "icon": .text(\.card.icon),
        "unitPrice": .text(\.card.price),
        "lineTotal": .money(\.lineTotal),
        "quantity": .int(\.quantity),
        "decrement": .int { $0.quantity - 1 },
        "increment": .int { $0.quantity + 1 },
        "canDecrease": .bool { $0.quantity > Cart.quantityRange.lowerBound },
        // "+" is disabled for one of two reasons, each said beside it: the limit, or the sale's end.
        "atLimit": .bool { $0.isAvailable && $0.quantity >= Cart.quantityRange.upperBound },
        "maximum": .int { _ in Cart.quantityRange.upperBound },
        "unavailable": .bool { !$0.isAvailable },
        "photo": .optional(\.photo),
    ]
}
