import MicroHTTP
import Mustache

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let shelf: LiveCatalog
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let cart = request.cart
        let shelf = shelf.current
        let content: MustacheValue = .object([
            "featured": shelf.cards.list(shelf.catalog.featured, cart: cart),
            "categories": shelf.categoryLinks,
            "csrf": .string(request.session.csrfToken),
            "returnTo": "/",
        ])
        return pages.render(
            .init(template: "home", title: "Home", tab: .home, cartCount: cart.itemCount, content: content, returnTo: "/"),
            session: request.session, places: request.places
        )
    }
}
