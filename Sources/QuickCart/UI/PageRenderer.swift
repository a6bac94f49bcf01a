import MicroHTTP
import Mustache

/// Renders a page's content view inside the shared layout (head, tab bar, live region), all
/// into one buffer that becomes the response body.
struct PageRenderer: Sendable {
    /// What a page tells the layout about itself.
    struct Page {
        /// The document title, before " · " and the shop's name.
        var title: String
        /// The tab the page belongs to, marked current in the bar.
        var tab: TabBar.TabID?
        /// The count the badge shows.
        var cartCount: Int
        /// The address forms on this page return to (this page, with its query).
        var returnTo: String
        var status: HTTPStatus = .ok
        /// The offline page, whose badge count is not known (``LayoutView/isOffline``).
        var isOffline = false

        /// Whether the page is its tab's root (`/search?q=tent` is Search's), not a page
        /// deeper in the tab's section (`/checkout` in Cart's).
        var isTabRoot: Bool {
            guard let tab else { return false }
            return returnTo.prefix { $0 != "?" && $0 != "#" } == tab.path
        }
    }

    let templates: PageTemplates
    let tabBar: TabBar
    let assets: AssetsView
    let shop: ShopView
    /// The layout toggle as a page with the sidebar shows it, and as one with the tab bar does.
    let layoutToggles: (sidebar: LayoutToggleView, bar: LayoutToggleView)
    /// Signs the notices forms leave and reads them back (``Notice``).
    let notices: NoticeCookies

    init(
        templates: PageTemplates, icons: IconSet, assets: AssetsView, shop: ShopView = ShopView(.standard, release: ""),
        notices: NoticeCookies
    ) {
        // Every page's layout has these assets and this shop: printed into the layout once.
        self.templates = templates.fixing(LayoutView(
            title: "", tab: nil, preferences: .standard, assets: assets, shop: shop, tabs: [], cartCount: 0, layoutToggle: nil, csrf: "", returnTo: ""
        ))
        self.notices = notices
        tabBar = TabBar.standard.withIcons(from: icons)
        self.assets = assets
        self.shop = shop
        layoutToggles = LayoutToggleView.pair(icon: icons["sidebar"])
    }

    /// The page that shows `view` under `tab`, its template compiled against the view now.
    /// - Throws: ``TemplateError`` when the template does not fit the view (file, line, field).
    func page<Content: PageView>(_ view: Content.Type, tab: TabBar.TabID?) throws(TemplateError) -> ShopPage<Content> {
        ShopPage(renderer: self, template: try templates.compile(view), tab: tab)
    }

    /// Renders `content` with its `template` for `session` in the layout: its theme, layout and
    /// tab order apply; `places` are the addresses where tabs were last left. A `notice` shows
    /// at the top of the content, and the answer clears its cookie, so it shows once (see ``Notice``).
    func render<Content: PageView>(
        _ content: Content, with template: PageTemplate<Content>, _ page: Page, session: Session?,
        places: [TabBar.TabID: String] = [:], notice: Notice? = nil
    ) -> Response {
        let preferences = session?.preferences ?? .standard
        let layout = LayoutView(
            title: page.title,
            tab: page.tab,
            preferences: preferences,
            assets: assets,
            shop: shop,
            tabs: tabBar.views(current: page.tab, atRoot: page.isTabRoot, order: preferences.tabOrder, places: places),
            cartCount: page.cartCount,
            layoutToggle: session.map { _ in preferences.usesSidebar ? layoutToggles.sidebar : layoutToggles.bar },
            csrf: session?.csrfToken ?? "",
            returnTo: page.returnTo,
            notice: notice,
            isOffline: page.isOffline
        )
        // Written straight into the body's array: no copy of the page at the end.
        let body = MustacheOutput.bytes(capacity: template.lastSize.estimate) { output in
            templates.layoutStart.render(layout, into: &output)
            template.content.render(content, in: layout, into: &output)
            templates.layoutEnd.render(layout, into: &output)
        }
        template.lastSize.record(body.count)
        var response = Response.html(bytes: body, status: page.status)
        // Pages carry the session's cart: never reuse one from a cache (Back shows it fresh).
        response.headers["Cache-Control"] = "no-store"
        if notice != nil { response.setCookie(notices.clearingCookie()) }
        return response
    }

    /// The notice the form post that led to `request` left, if any (see ``Notice``).
    func notice(in request: ShopRequest) -> Notice? {
        notices.notice(in: request)
    }
}
