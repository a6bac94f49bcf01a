import Mustache

/// The cart page's rows, subtotal and checkout state.
struct CartViewModel: MustacheConvertible {
    let cart: Cart
    let csrfToken: String
    let icons: IconSet

    var mustacheValue: MustacheValue {
        .object([
            "items": .array(cart.items.map { item in
                .object([
                    "id": .string(String(item.product.id)),
                    "name": .string(item.product.name),
                    "icon": .string(icons[item.product.icon]),
                    "unitPrice": .string(item.product.price.formatted),
                    "lineTotal": .string(item.lineTotal.formatted),
                    "quantity": .int(item.quantity),
                    "decrement": .int(item.quantity - 1),
                    "increment": .int(item.quantity + 1),
                    "canDecrease": .bool(item.quantity > Cart.quantityRange.lowerBound),
                    "canIncrease": .bool(item.quantity < Cart.quantityRange.upperBound),
                ])
            }),
            "hasItems": .bool(!cart.isEmpty),
            "maximum": .int(Cart.quantityRange.upperBound),
            "count": .int(cart.itemCount),
            "countText": .string(Badge.itemCountText(cart.itemCount)),
            "subtotal": .string(cart.subtotal.formatted),
            "canCheckout": .bool(!cart.isEmpty),
            "csrf": .string(csrfToken),
        ])
    }
}
