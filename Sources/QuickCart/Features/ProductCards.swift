import Mustache

/// Product cards as Home and Search show them, and the cart's rows reuse: name, description,
/// price and photo or icon, made once per catalog (``CatalogDisplay`` makes them again when an import
/// lands), so a page only adds how many of each are in the cart.
struct ProductCards: Sendable {
    private let cards: [Int64: ProductCard]
    private let icons: IconSet

    init(catalog: Catalog, icons: IconSet) {
        // Inactive products too: carts may still hold them.
        cards = Dictionary(uniqueKeysWithValues: catalog.allProducts.map { ($0.id, ProductCard($0, icons: icons)) })
        self.icons = icons
    }

    /// The card of `product`: the one made at start, or (for a product the catalog did not
    /// hold then) a new one.
    func card(for product: Product) -> ProductCard {
        cards[product.id] ?? ProductCard(product, icons: icons)
    }

    /// The cards of `products`, in order, each saying how many `cart` holds. Their names are
    /// headings one level below `parentLevel`, the heading of the section that lists them, so
    /// the outline never skips a level.
    func views(_ products: [Product], cart: Cart, under parentLevel: Int) -> [ProductCardView] {
        // By index, reading only what is needed: a product is a large value to copy.
        var views: [ProductCardView] = []
        views.reserveCapacity(products.count)
        for position in products.indices {
            let id = products[position].id
            let quantity = cart.quantity(of: id)
            let card = cards[id] ?? ProductCard(products[position], icons: icons)
            views.append(ProductCardView(
                card: card, inCart: quantity > 0 ? quantity : nil, headingLevel: parentLevel + 1,
                photo: ProductPhotoView(card.photo, position: position)
            ))
        }
        return views
    }
}

/// What never changes about a product on a page, with the bytes pages print for it made (and
/// escaped) once. A class, so a page's cards and rows share it rather than copying its text.
final class ProductCard: Sendable {
    let id: Int
    let name: MustacheText
    let description: MustacheText
    /// The price, formatted once.
    let price: MustacheText
    /// The icon's SVG markup, shown when there is no photo.
    let icon: MustacheText
    let photo: ProductPhoto?

    init(_ product: Product, icons: IconSet) {
        id = Int(product.id)
        name = MustacheText(product.name)
        description = MustacheText(product.summary)
        price = MustacheText(product.price.formatted)
        icon = MustacheText(icons[product.icon])
        photo = product.image.map { ProductPhoto($0, name: product.name) }
    }
}

/// A product card on a page (`partials/product`).
struct ProductCardView: MustacheView {
    let card: ProductCard
    /// How many are in the cart; `nil` for none.
    let inCart: Int?
    /// The level of the `h` element holding the product's name.
    let headingLevel: Int
    /// Its photo; the icon shows when it has none.
    let photo: ProductPhotoView?

    static let mustacheFields: MustacheFields<ProductCardView> = [
        "id": .int(\.card.id),
        "name": .text(\.card.name),
        "description": .text(\.card.description),
        "price": .text(\.card.price),
        "icon": .text(\.card.icon),
        "inCart": .int(\.inCart),
        "headingLevel": .int(\.headingLevel),
        "photo": .optional(\.photo),
    ]
}

/// A link to a category's search, with its product count (Home, Search). Made once, with
/// the bytes pages print.
struct CategoryLinkView: MustacheView {
    let name: MustacheText
    let href: MustacheText
    let count: Int

    init(name: String, href: String, count: Int) {
        self.name = MustacheText(name)
        self.href = MustacheText(href)
        self.count = count
    }

    static let mustacheFields: MustacheFields<CategoryLinkView> = [
        "name": .text(\.name),
        "href": .text(\.href),
        "count": .int(\.count),
    ]
}
