import MicroHTTP

extension HomeController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let home = HomeController(catalogDisplay: shop.catalogDisplay, page: try shop.pages.page(HomeView.self, tab: .home))
        routes.get(TabBar.TabID.home.path, use: home.show)
    }
}

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let catalogDisplay: CatalogDisplay
    let page: ShopPage<HomeView>

    func show(_ request: ShopRequest) throws -> Response {
        let display = catalogDisplay.current
        let content = HomeView(
            featured: display.cards.views(display.catalog.featured, cart: request.cart, under: HomeView.titleLevel), categories: display.categoryLinks
        )
        return page.render(content, title: "Home", returnTo: TabBar.TabID.home.path, for: request)
    }
}
