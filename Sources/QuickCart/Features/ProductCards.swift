import Mustache

/// Product cards as Home and Search show them: name, description, price and icon,
/// built once per catalog (``LiveCatalog`` rebuilds them when an import lands), so a page
/// only adds how many of each are in the cart.
struct ProductCards: Sendable {
    private let cards: [Int64: MustacheObject]

    init(catalog: Catalog, icons: IconSet) {
        cards = Dictionary(uniqueKeysWithValues: catalog.products.map { product in
            let card: MustacheObject = [
                "id": .string(String(product.id)),
                "name": .string(product.name),
                "description": .string(product.summary),
                "price": .string(product.price.formatted),
                "icon": .string(icons[product.icon]),
            ]
            return (product.id, card)
        })
    }

    /// The cards of `products`, in order, each with `inCart` when `cart` holds some of it.
    func list(_ products: [Product], cart: Cart) -> MustacheValue {
        .array(products.compactMap { product in
            guard var card = cards[product.id] else { return nil }
            let quantity = cart.quantity(of: product.id)
            if quantity > 0 { card["inCart"] = .int(quantity) }
            return .object(card)
        })
    }
}
