import MicroHTTP

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let shelf: LiveCatalog
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let cart = request.cart
        let shelf = shelf.current
        let content = HomeView(
            featured: shelf.cards.views(shelf.catalog.featured, cart: cart, under: HomeView.titleLevel), categories: shelf.categoryLinks
        )
        return pages.render(
            content, .init(title: "Home", tab: .home, cartCount: cart.itemCount, returnTo: "/"),
            session: request.session, places: request.places, notice: pages.notice(in: request)
        )
    }
}
