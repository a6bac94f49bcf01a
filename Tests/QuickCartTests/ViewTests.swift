import Foundation
import Mustache
@testable import QuickCart
import Testing

/// The page layer: each page's typed view, compiled against the real `Views/`, renders what
/// the dynamic Mustache renderer renders from the same data; a broken template stops the start.
@Suite("Typed views") struct ViewTests {
    static let views = TestShop.repositoryRoot + "/Views"

    /// A catalog whose names and summaries need escaping, with a price past a thousand dollars.
    static let catalog = Catalog(products: [
        Product(id: 1, slug: "tent", name: "Tent <2p> & “fly”", summary: "Sleeps 'two'", category: "Camping",
                price: Money(cents: 123_456), icon: "tent", isFeatured: true),
        Product(id: 2, slug: "cap", name: "Cap", summary: "Shade", category: "Running", price: Money(cents: 1_999), icon: "cap", isFeatured: true),
        Product(id: 3, slug: "map", name: "Map", summary: "Paper", category: "Camping", price: Money(cents: 5), icon: "nowhere", isFeatured: false),
    ])

    struct Fixture {
        let library: MustacheLibrary
        let pages: PageRenderer
        let cards: ProductCards

        init() throws {
            library = try MustacheLibrary(directory: ViewTests.views)
            let icons = try IconSet(directory: TestShop.repositoryRoot + "/Public/icons")
            pages = PageRenderer(
                templates: try PageTemplates(directory: ViewTests.views), icons: icons,
                assets: AssetsView(css: "/static/css/app.css?v=1&x", js: "/static/js/app.js?v=2"),
                notices: NoticeCookies(secret: Array(repeating: 1, count: 32), secure: false)
            )
            cards = ProductCards(catalog: ViewTests.catalog, icons: icons)
        }

        func layout(_ tab: TabBar.TabID?, sidebar: Bool = false, session: Bool = true) -> LayoutView {
            var preferences = Preferences.standard
            preferences.usesSidebar = sidebar
            preferences.theme = .dark
            preferences.tabOrder = ["profile", "home", "search"]
            return LayoutView(
                title: "Title <&>", tab: tab, preferences: preferences, assets: pages.assets, shop: pages.shop,
                tabs: pages.tabBar.views(current: tab, atRoot: true, order: preferences.tabOrder, places: [.search: "/search?q=a&b"]), cartCount: 120,
                layoutToggle: session ? (sidebar ? pages.layoutToggles.sidebar : pages.layoutToggles.bar) : nil,
                csrf: session ? "0123abcd" : "", returnTo: "/search?q=%3C"
            )
        }

        /// The page as the app renders it, and as the dynamic renderer renders the same views.
        func render<Content: PageView>(_ content: Content, in layout: LayoutView) throws -> (typed: String, dynamic: String) {
            var output = MustacheOutput()
            pages.templates.layoutStart.render(layout, into: &output)
            try pages.templates.compile(Content.self).content.render(content, in: layout, into: &output)
            pages.templates.layoutEnd.render(layout, into: &output)
            // The content's names shadow the layout's, as the compiled template's scopes do.
            guard case .object(var merged) = layout.mustacheValue, case .object(let own) = content.mustacheValue else { return ("", "not objects") }
            for (name, value) in own { merged[name] = value }
            let dynamic = (library.render("layout-start", with: layout) ?? "")
                + (library.render(Content.templateName, with: MustacheValue.object(merged)) ?? "")
                + (library.render("layout-end", with: layout) ?? "")
            return (String(decoding: output.finish(), as: UTF8.self), dynamic)
        }
    }

    @Test("The bar made once for the standard order is the one made for each page")
    func madeOnceBarIsTheBarOfEachPage() throws {
        let bar = try Fixture().pages.tabBar
        for current in [nil] + TabBar.TabID.allCases {
            for atRoot in [true, false] {
                let once = bar.views(current: current, atRoot: atRoot, order: [], places: [:])
                // The standard order spelled out takes the path that makes the bar for the page.
                let made = bar.views(current: current, atRoot: atRoot, order: bar.movableTabIDs, places: [.search: "/search"])
                #expect(once.map(\.tab.id) == made.map(\.tab.id))
                #expect(once.map(\.isCurrent) == made.map(\.isCurrent))
                #expect(once.map(\.isCurrentPage) == made.map(\.isCurrentPage))
                #expect(once.map(\.path.string) == made.map(\.path.string))
                #expect(once.filter(\.isCurrent).map(\.tab.id) == (current.map { [$0] } ?? []))
                #expect(once.filter(\.isCurrentPage).map(\.tab.id) == (atRoot ? current.map { [$0] } ?? [] : []))
            }
        }
    }

    @Test("Home, Search, Cart, Profile and error pages render as the dynamic renderer renders the same views")
    func typedEqualsDynamic() throws {
        let fixture = try Fixture()
        let cart = Cart(items: [
            Cart.Item(product: Self.catalog.products[0], quantity: 10),
            Cart.Item(product: Self.catalog.products[2], quantity: 1),
        ])
        let links = SearchController.categoryLinks(in: Self.catalog)
        let order = Order(id: 7, placedAt: 1_700_000_000, lines: [Order.Line(name: "Cap <x>", unitPrice: Money(cents: 1_999), quantity: 3)])
        var checked: [String] = []
        func check<Content: PageView>(_ content: Content, _ layout: LayoutView, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let (typed, dynamic) = try fixture.render(content, in: layout)
            #expect(typed == dynamic, "\(Content.templateName): typed and dynamic renderings differ", sourceLocation: sourceLocation)
            #expect(typed.contains("</html>"), sourceLocation: sourceLocation)
            checked.append(typed)
        }

        try check(HomeView(featured: fixture.cards.views(Self.catalog.featured, cart: cart, under: HomeView.titleLevel), categories: links), fixture.layout(.home))
        try check(
            SearchView(
                query: "t <", results: fixture.cards.views(Self.catalog.products, cart: cart, under: SearchView.resultsLevel),
                resultSummary: "3 results for “t <”", recent: [RecentSearchView(text: "a&b", href: "/search?q=a%26b")], categories: links
            ),
            fixture.layout(.search, sidebar: true)
        )
        try check(SearchView(query: "", results: [], resultSummary: "", recent: [], categories: links), fixture.layout(.search))
        try check(SearchView(query: "zz", results: [], resultSummary: "No results", recent: [], categories: links), fixture.layout(.search))
        try check(CartView(cart: cart, cards: fixture.cards), fixture.layout(.cart))
        try check(CartView(cart: Cart(), cards: fixture.cards), fixture.layout(.cart))
        let tabs = fixture.pages.tabBar.tabs
        try check(
            ProfileView(
                displayName: "Ann <b>", memberSince: "1 Dec 2026", memberSinceISO: "2026-12-01T00:00:00Z",
                orders: [OrderView(order: order, placedAt: "14 Nov 2023", placedAtISO: "2023-11-14T22:13:20Z")],
                themes: Preferences.Theme.allCases.map { ThemeChoiceView(theme: $0, selected: $0 == .light) },
                tabOrder: tabs.enumerated().map { TabOrderItemView(tab: $1, position: $1.role == .prominent ? nil : $0, movableCount: 3) },
                isCustomOrder: true, notificationsOn: false, confirmation: OrderConfirmationView(order: order),
                devices: [
                    DeviceView(name: "Chromium on Linux <b>", lastSeen: "1 Dec 2026", lastSeenISO: "2026-12-01", isThisDevice: true, handle: "ab"),
                    DeviceView(name: "Safari on iPhone", lastSeen: "30 Nov 2026", lastSeenISO: "2026-11-30", isThisDevice: false, handle: "cd"),
                ],
                savedDelivery: SavedDeliveryView(details: DeliveryStoreTests.details(name: "Ann <b>"), methodName: "Standard <b>", isCollected: false)
            ),
            fixture.layout(.profile)
        )
        try check(
            ProfileView(
                displayName: "Guest", memberSince: "", memberSinceISO: "", orders: [], themes: [], tabOrder: [],
                isCustomOrder: false, notificationsOn: true, confirmation: nil, devices: [], savedDelivery: nil,
                typedName: "  <b>", nameProblem: "Please enter a <b> display name."
            ),
            fixture.layout(.profile)
        )
        let methods = DeliverySeed.methods
        var typed = DeliveryStoreTests.details(name: "Ann <b>")
        typed.email = "not an address"
        let form = DeliveryFormView(
            action: "/checkout/delivery", submitLabel: "Continue", details: typed, methods: methods, subtotal: cart.subtotal,
            problems: typed.problems(methods: methods)
        )
        try check(CheckoutDeliveryView(form: form, offersSaved: true), fixture.layout(.cart))
        try check(CheckoutDeliveryView(form: nil, offersSaved: false), fixture.layout(.cart))
        try check(DeliveryDetailsPageView(form: form), fixture.layout(.profile))
        let delivery = OrderDelivery(details: typed, method: methods[0], subtotal: cart.subtotal)
        try check(
            CheckoutReviewView(cart: cart, cartVersion: 4, delivery: delivery, detailsVersion: 7, changed: true), fixture.layout(.cart)
        )
        try check(ErrorView(title: "Page not found", message: "No <such> page", backHref: "/", backLabel: "Go to Home"), fixture.layout(nil, session: false))

        // The data reached the page: escaped text, prices, counts, the layout's token in forms.
        #expect(checked[0].contains(#"<h2 class="product__name">Tent &lt;2p&gt; &amp; “fly”</h2>"#))
        #expect(checked[1].contains(#"<h3 class="product__name">Map</h3>"#))
        #expect(checked[4].contains("$12,345.60") && checked[4].contains("$12,345.65") && checked[4].contains("<td data-count>11</td>"))
        #expect(checked[4].contains(#"<input type="hidden" name="csrf" value="0123abcd">"#))
        #expect(checked[6].contains("Order #7 is placed.</h1>") && checked[6].contains("<dd>3 items</dd>") && checked[6].contains("<dd>$59.97</dd>"))
    }

    @Test("Home's product names are one level below its title; Search's one below the results' heading")
    func headingsNeverSkipALevel() throws {
        let fixture = try Fixture()
        let home = try fixture.render(HomeView(featured: fixture.cards.views(Self.catalog.featured, cart: Cart(), under: HomeView.titleLevel), categories: []), in: fixture.layout(.home)).typed
        let search = try fixture.render(
            SearchView(query: "a", results: fixture.cards.views(Self.catalog.products, cart: Cart(), under: SearchView.resultsLevel),
                       resultSummary: "3 results", recent: [], categories: []),
            in: fixture.layout(.search)
        ).typed
        for (page, expected) in [(home, [1, 2, 2, 2]), (search, [1, 2, 3, 3, 3])] {
            let html = HTMLDocument(page)
            let levels = html.elements { ["h1", "h2", "h3", "h4"].contains($0.name) }.map { Int($0.name.dropFirst())! }
            #expect(Array(levels.prefix(expected.count)) == expected, "heading levels: \(levels)")
            for (previous, next) in zip(levels, levels.dropFirst()) {
                #expect(next <= previous + 1, "a heading skips from h\(previous) to h\(next): \(levels)")
            }
        }
    }

    @Test("On every page of the running shop the outline starts at h1 and never skips a level")
    func outlineOfEveryPage() throws {
        let browser = try TestShop().browser()
        _ = try browser.search("tent")
        var paths = ["/checkout"]
        #expect(try browser.postDelivery().status == 303)
        paths += ["/checkout/review", "/profile/delivery"]
        // Each checkout page as it shows before the order empties the cart.
        let early = try paths.map { try browser.get($0).html }
        let checkout = try browser.placeOrder()
        let orderPage = try #require(checkout.location).prefix { $0 != "#" }
        for path in ["/", "/search", "/search?q=tent", "/search?q=nothing-like-it", "/cart", "/profile", String(orderPage), "/nowhere"] + paths {
            let html = try paths.firstIndex(of: path).map { early[$0] } ?? browser.get(path).html
            let levels = html.elements { ["h1", "h2", "h3", "h4", "h5", "h6"].contains($0.name) }.map { Int($0.name.dropFirst())! }
            #expect(levels.first == 1, "\(path) should start with an h1: \(levels)")
            for (previous, next) in zip(levels, levels.dropFirst()) {
                #expect(next <= previous + 1, "\(path): a heading skips from h\(previous) to h\(next) in \(levels)")
            }
        }
    }

    /// Starts the shop (nothing listens) on `resources`, with a database of its own: where every
    /// page's template is compiled, as the features that show them register.
    private static func start(with resources: TemporaryDirectory) throws {
        let database = try TemporaryDirectory()
        var configuration = QuickCart.Configuration()
        configuration.port = 0
        configuration.resourcesPath = resources.path
        configuration.databasePath = database.path + "/quickcart.sqlite"
        _ = try QuickCartApp(configuration: configuration)
    }

    /// A copy of `Views/` with one change, and `Public/` beside it, as `--resources` expects.
    private func brokenResources(_ file: String, _ change: (String) -> String?) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let fileManager = FileManager.default
        try fileManager.copyItem(atPath: Self.views, toPath: directory.path + "/Views")
        try fileManager.createSymbolicLink(atPath: directory.path + "/Public", withDestinationPath: TestShop.repositoryRoot + "/Public")
        let path = directory.path + "/Views/" + file
        if let text = change(try String(contentsOfFile: path, encoding: .utf8)) {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            try fileManager.removeItem(atPath: path)
        }
        return directory
    }

    @Test("QuickCart refuses to start when a template names a field its view lacks, naming file, line and field")
    func appRefusesBrokenViews() throws {
        let resources = try brokenResources("partials/product.mustache") { $0.replacingOccurrences(of: "{{description}}", with: "{{descripton}}") }
        let error = try #require(throws: (any Error).self) { try Self.start(with: resources) }
        let file = URL(fileURLWithPath: resources.path + "/Views/partials/product.mustache").path
        #expect("\(error)" == "\(file):5:33: no field 'descripton' in ProductCardView or HomeView or LayoutView")
    }

    @Test("A broken Views/ fails to compile with the file and line", arguments: [
        ("search.mustache", "", "{{#query}}x{{/query}}", "search.mustache:1:1: section 'query' is over String; a section needs a list, a Bool, an optional or a view"),
        ("cart.mustache", "{{> partials/cart-contents}}", "{{> partials/cart-content}}", "cart.mustache:2:1: no partial named 'partials/cart-content'"),
        ("layout-end.mustache", "</main>", "</main>{{theme}}{{csrf}}{{tilte}}", "layout-end.mustache:2:25: no field 'tilte' in LayoutView"),
        ("profile.mustache", "", "{{#orders}}{{number.x}}{{/orders}}", "profile.mustache:1:12: 'number.x': cannot look inside String for 'x'"),
    ])
    func brokenTemplates(file: String, old: String, new: String, expected: String) throws {
        let resources = try brokenResources(file) { text in
            // An empty `old` puts `new` on a line of its own at the top.
            old.isEmpty ? new + "\n" + text : text.replacingOccurrences(of: old, with: new)
        }
        let error = try #require(throws: TemplateError.self) { try Self.start(with: resources) }
        #expect(error.description.hasSuffix("/Views/" + expected), "\(error)")
    }

    @Test("A view whose template is missing stops the start")
    func missingTemplate() throws {
        let resources = try brokenResources("error.mustache") { _ in nil }
        let error = try #require(throws: TemplateError.self) { try Self.start(with: resources) }
        #expect(error.description.hasSuffix("/Views/error.mustache: no template named 'error' for ErrorView"), "\(error)")
    }
}
