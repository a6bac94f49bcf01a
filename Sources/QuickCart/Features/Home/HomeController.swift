import MicroHTTP
import Mustache

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let catalog: Catalog
    let carts: CartStore
    let pages: PageRenderer
    let cards: ProductCards
    /// The category links, built once (``SearchController/categoryLinks(in:)``).
    let categoryLinks: MustacheValue

    func show(_ request: ShopRequest) throws -> Response {
        let cart = try carts.cart(for: request.session)
        let content: MustacheValue = .object([
            "featured": cards.list(catalog.featured, cart: cart),
            "categories": categoryLinks,
            "csrf": .string(request.session.csrfToken),
            "returnTo": "/",
        ])
        return pages.render(
            .init(template: "home", title: "Home", tab: .home, cartCount: cart.itemCount, content: content, returnTo: "/"),
            session: request.session, places: request.places, notice: request.notice
        )
    }
}
