import Mustache

/// The Cart tab (`cart.mustache`, `partials/cart-contents`): a row per item, the count,
/// subtotal and checkout.
struct CartView: PageView {
    let items: [CartRowView]
    let count: Int
    let subtotal: Money

    init(cart: Cart, cards: ProductCards) {
        items = cart.items.map { item in
            CartRowView(card: cards.card(for: item.product), quantity: item.quantity, lineTotal: item.lineTotal)
        }
        count = cart.itemCount
        subtotal = cart.subtotal
    }

    static let templateName = "cart"
    static let template = \PageTemplates.cart
    static let mustacheFields: MustacheFields<CartView> = [
        "items": .list(\.items),
        "hasItems": .bool { !$0.items.isEmpty },
        "count": .int(\.count),
        "subtotal": .money(\.subtotal),
        "canCheckout": .bool { !$0.items.isEmpty },
    ]
}

/// One item of the cart, with its quantity stepper and remove button.
struct CartRowView: MustacheView {
    /// The product as the catalog shows it, made once.
    let card: ProductCard
    let quantity: Int
    let lineTotal: Money

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
        "canIncrease": .bool { $0.quantity < Cart.quantityRange.upperBound },
        "maximum": .int { _ in Cart.quantityRange.upperBound },
    ]
}
