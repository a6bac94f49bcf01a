/// The cart page as the shop renders it (``PageRenderer``, ``CartView``, ``LayoutView``, the real
/// `Views/`), for a cart the caller makes up, with no server, storage or request. It is for
/// `Benchmarks/Micro`, which imports it with `@_spi(Benchmarks) import QuickCart`: the shop's
/// views are internal, and a benchmark of copies of them measures the copies.
@_spi(Benchmarks) public struct CartPageSample: Sendable {
    private let page: ShopPage<CartView>
    private let content: CartView
    private let session: Session

    /// Compiles the layout and the cart template in `views` against the shop's views, with the
    /// icons of `icons`, and makes the cart page's view of `cart` for `session`.
    /// - Throws: ``TemplateError`` when a template does not fit its view; an icon folder that
    ///   cannot be read.
    public init(views: String, icons iconDirectory: String, cart: Cart, session: Session) throws {
        let icons = try IconSet(directory: iconDirectory)
        let renderer = PageRenderer(
            templates: try PageTemplates(directory: views), icons: icons,
            assets: AssetsView(css: "/static/css/app.css?v=0123456789abcdef", js: "/static/js/app.js?v=0123456789abcdef"),
            shop: ShopView(.standard, release: "0123456789abcdef"),
            notices: NoticeCookies(secret: Array(repeating: 7, count: 32), secure: false)
        )
        page = try renderer.page(CartView.self, tab: .cart)
        content = CartView(cart: cart, cards: ProductCards(catalog: Catalog(products: cart.items.map(\.product)), icons: icons))
        self.session = session
    }

    /// Renders the page once, as a request for it would (the layout, the cart inside it).
    /// - Returns: The page's size in bytes.
    public func render() -> Int {
        let response = page.render(
            content, .init(title: "Cart", tab: .cart, cartCount: content.count, returnTo: "/cart"), session: session
        )
        return switch response.body {
        case .bytes(let bytes): bytes.count
        case .shared(let shared): shared.bytes.count
        case .empty, .eventStream: 0
        }
    }
}
