import MicroHTTP
import Mustache

/// Renders a feature's template inside the shared layout: head, tab bar, live region.
struct PageRenderer: Sendable {
    /// One page to render.
    struct Page {
        /// The template's name in `Views/`, e.g. `cart`.
        var template: String
        /// The document title, before " · QuickCart".
        var title: String
        /// The tab the page belongs to, marked current in the bar.
        var tab: TabBar.TabID?
        /// The count the badge shows.
        var cartCount: Int
        /// The template's view model.
        var content: MustacheValue
        /// The address forms on this page return to (this page, with its query).
        var returnTo: String
        var status: HTTPStatus = .ok
    }

    let templates: MustacheLibrary
    let icons: IconSet
    let tabBar: TabBar
    /// Versioned URLs of the stylesheet and script, so browsers may cache them for long.
    let assets: MustacheValue

    /// Renders `page` for `session`: its theme, layout and tab order apply; `places` are the
    /// addresses where tabs were last left. A `notice` shows at the top of the content, and the
    /// answer clears its cookie, so it shows once (see ``Notice``).
    func render(_ page: Page, session: Session?, places: [TabBar.TabID: String] = [:], notice: String? = nil) -> Response {
        let preferences = session?.preferences ?? .standard
        let layout: MustacheValue = .object([
            "title": .string(page.title),
            "page": .string(page.tab?.rawValue ?? "other"),
            "theme": .string(preferences.theme.rawValue),
            "layout": .string(preferences.usesSidebar ? "sidebar" : "bar"),
            "notifications": .string(preferences.notifications ? "on" : "off"),
            "assets": assets,
            "notice": notice.map { .string($0) } ?? .null,
            "tabs": tabBar.viewModel(current: page.tab, cartCount: page.cartCount, order: preferences.tabOrder, places: places),
            "layoutToggle": session.map { session in
                .object([
                    "csrf": .string(session.csrfToken),
                    "returnTo": .string(page.returnTo),
                    "value": .string(preferences.usesSidebar ? "bar" : "sidebar"),
                    "label": .string(preferences.usesSidebar ? "Show tab bar" : "Show sidebar"),
                    "pressed": .string(preferences.usesSidebar ? "true" : "false"),
                    "icon": .string(icons["sidebar"]),
                ])
            } ?? .null,
        ])
        // One buffer for the whole page: the layout's start, the feature's content, its end.
        var body: [UInt8] = []
        body.reserveCapacity(16 * 1024)
        _ = templates.render("layout-start", with: layout, into: &body)
        _ = templates.render(page.template, with: page.content, into: &body)
        _ = templates.render("layout-end", with: layout, into: &body)
        var response = Response.html(bytes: body, status: page.status)
        // Pages carry the session's cart: never reuse one from a cache (Back shows it fresh).
        response.headers["Cache-Control"] = "no-store"
        if notice != nil { response.setCookie(Notice.clearingCookie) }
        return response
    }
}
