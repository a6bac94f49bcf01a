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
        var status: HTTPStatus = .ok
    }

    let templates: MustacheLibrary
    let icons: IconSet
    let tabBar: TabBar
    /// Versioned URLs of the stylesheet and script, so browsers may cache them for long.
    let assets: MustacheValue

    func render(_ page: Page) -> Response {
        let content = templates.render(page.template, with: page.content) ?? ""
        let layout: MustacheValue = .object([
            "title": .string(page.title),
            "page": .string(page.tab?.rawValue ?? "other"),
            "theme": "system",
            "assets": assets,
            "tabs": tabBar.viewModel(current: page.tab, cartCount: page.cartCount, icons: icons),
            "content": .string(content),
        ])
        var body: [UInt8] = []
        body.reserveCapacity(content.utf8.count + 4096)
        _ = templates.render("layout", with: layout, into: &body)
        var response = Response.html(bytes: body, status: page.status)
        // Pages carry the session's cart: never reuse one from a cache (Back shows it fresh).
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// The markup of an icon, for view models.
    func icon(_ name: String) -> String {
        icons[name]
    }
}
