import MicroHTTP
import Mustache

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let catalog: Catalog
    let carts: CartStore
    let pages: PageRenderer
    let cards: ProductCards
    /// The category links, the same on every visit.
    private let categories: MustacheValue

    init(catalog: Catalog, carts: CartStore, pages: PageRenderer, cards: ProductCards) {
        self.catalog = catalog
        self.carts = carts
        self.pages = pages
        self.cards = cards
        categories = .array(catalog.categories.map { category in
            .object([
                "name": .string(category.name),
                "href": .string(SearchController.href(for: category.name)),
                "count": .int(category.products.count),
            ])
        })
    }

    func show(_ request: ShopRequest) throws -> Response {
        let cart = try carts.cart(for: request.session)
        let content: MustacheValue = .object([
            "featured": cards.list(catalog.featured, cart: cart),
            "categories": categories,
            "csrf": .string(request.session.csrfToken),
            "returnTo": "/",
        ])
        return pages.render(
            .init(template: "home", title: "Home", tab: .home, cartCount: cart.itemCount, content: content, returnTo: "/"),
            session: request.session, places: request.places
        )
    }
}
