import Mustache

/// A product as a card shows it: name, description, price, icon and how many are in the cart.
struct ProductViewModel: MustacheConvertible {
    let product: Product
    let quantityInCart: Int
    let icon: String

    var mustacheValue: MustacheValue {
        var value: MustacheObject = [
            "id": .string(String(product.id)),
            "name": .string(product.name),
            "description": .string(product.summary),
            "category": .string(product.category),
            "price": .string(product.price.formatted),
            "icon": .string(icon),
        ]
        if quantityInCart > 0 { value["inCart"] = .int(quantityInCart) }
        return .object(value)
    }

    static func list(_ products: [Product], cart: Cart, pages: PageRenderer) -> MustacheValue {
        .array(products.map {
            ProductViewModel(product: $0, quantityInCart: cart.quantity(of: $0.id), icon: pages.icon($0.icon)).mustacheValue
        })
    }
}
