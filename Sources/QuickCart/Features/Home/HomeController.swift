import MicroHTTP

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let catalog: Catalog
    let pages: PageRenderer
    let cards: ProductCards
    /// The category links, built once (``SearchController/categoryLinks(in:)``).
    let categoryLinks: [CategoryLinkView]

    func show(_ request: ShopRequest) throws -> Response {
        let cart = request.cart
        let content = HomeView(featured: cards.views(catalog.featured, cart: cart, under: HomeView.titleLevel), categories: categoryLinks)
        return pages.render(
            content, .init(title: "Home", tab: .home, cartCount: cart.itemCount, returnTo: "/"),
            session: request.session, places: request.places, notice: request.notice
        )
    }
}
