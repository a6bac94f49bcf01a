import MicroHTTP
import Mustache

/// The Home tab: featured products to add, and the categories to browse.
struct HomeController: Sendable {
    let catalog: Catalog
    let carts: CartStore
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let cart = try carts.cart(for: request.session)
        let content: MustacheValue = .object([
            "featured": ProductViewModel.list(catalog.featured, cart: cart, pages: pages),
            "categories": .array(catalog.categories.map { category in
                .object([
                    "name": .string(category.name),
                    "href": .string(SearchController.href(for: category.name)),
                    "count": .int(category.products.count),
                ])
            }),
            "csrf": .string(request.session.csrfToken),
            "returnTo": "/",
        ])
        return pages.render(
            .init(template: "home", title: "Home", tab: .home, cartCount: cart.itemCount, content: content, returnTo: "/"),
            session: request.session, places: request.places
        )
    }
}
