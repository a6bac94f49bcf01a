import Foundation
import HTTPTesting
import QuickCart
@_exported import TestSupport
import Testing

/// The real QuickCart app on a free loopback port, on a fresh SQLite file in its own
/// temporary directory. Stops when the test lets go of it and of its browsers (or at ``stop()``);
/// the directory goes with the last shop that uses it. With `inProcess`, nothing listens: its
/// browsers' requests go straight to the app's router (``QuickCartApp/respond(to:)``), for
/// tests that need only requests and answers, not the server's own handling of a socket,
/// streams or malformed requests.
///
/// ```swift
/// let browser = try TestShop().browser()
/// let cart = try browser.get("/cart")
/// ```
final class TestShop {
    let app: QuickCartApp
    /// Where the database lives; pass it to another ``TestShop`` to restart on the same file.
    let directory: TemporaryDirectory
    /// The backend's place the shop's data lives in, when it was started `on` one.
    let location: StoreLocation?
    private var isStopped = false
    /// Whether requests go to the router in this process rather than through a socket.
    let inProcess: Bool

    /// The repository's root, which holds `Views/` and `Public/`.
    static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // QuickCartTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .path

    /// Starts the shop.
    /// - Parameters:
    ///   - emptyCarts: New sessions start with an empty cart instead of the demo cart.
    ///   - heartbeatInterval: Seconds between keep-alive comments on event streams.
    ///   - directory: A directory whose database to reuse, for restarts; a new one by default.
    ///   - backend: A backend to keep the data on, in a new, empty place of its own, instead of
    ///     the directory's SQLite file.
    ///   - configure: Any other change to the configuration.
    init(
        emptyCarts: Bool = false,
        heartbeatInterval: Double = 15,
        directory: TemporaryDirectory? = nil,
        inProcess: Bool = false,
        on backend: StoreBackend? = nil,
        configure: (inout QuickCart.Configuration) -> Void = { _ in }
    ) throws {
        let location = try backend?.makeLocation()
        let directory = try directory ?? TemporaryDirectory()
        var configuration = QuickCart.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.resourcesPath = Self.repositoryRoot
        configuration.databasePath = location?.database ?? directory.path + "/quickcart.sqlite"
        configuration.emptyCarts = emptyCarts
        configuration.threads = 2
        configuration.heartbeatInterval = heartbeatInterval
        configuration.accessLog = false
        configure(&configuration)
        app = try QuickCartApp(configuration: configuration)
        self.inProcess = inProcess
        if !inProcess { try app.start() }
        self.directory = directory
        self.location = location
    }

    deinit {
        stop()
    }

    var port: Int { app.port }

    /// Stops the app (once): ends streams, finishes requests, closes the database.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        app.stop()
    }

    /// A browser with an empty cookie jar, or holding `cookie` as its session. It keeps the
    /// shop running while it is used, so a test that needs only the browser can let go of the shop.
    func browser(cookie: String? = nil) -> Browser {
        Browser(shop: self, sessionCookie: cookie)
    }

    /// A new browser that has opened Home, as a first visit does, and the session cookie it was given.
    func visitor(sourceLocation: SourceLocation = #_sourceLocation) throws -> (browser: Browser, cookie: String) {
        let browser = self.browser()
        _ = try browser.get("/")
        return (browser, try #require(browser.sessionCookie, sourceLocation: sourceLocation))
    }

    /// A bare connection, for requests no browser would send.
    func client(timeout: Double = 10) throws -> TestHTTPClient {
        try TestHTTPClient(port: port, timeout: timeout)
    }
}

/// A browser of one session: keeps the `quickcart_session` cookie (and the recent searches'
/// cookie of a session not stored yet), sends them back, reads the CSRF token from pages and
/// puts it into forms. It follows no redirect on its own: tests
/// check the `303` and its `Location`, then get that page.
final class Browser {
    /// What a form post carries as its CSRF token.
    enum CSRF {
        /// The token from this session's pages (one is loaded when none has been seen yet).
        case fromPage
        /// No token field at all.
        case none
        /// This exact value.
        case value(String)
    }

    let port: Int
    /// The value of the session cookie the browser holds.
    private(set) var sessionCookie: String?
    /// The recent searches of the session before it is stored (``RecentSearchCookies``), by name.
    private var searchesCookies: [String: String] = [:]
    private var csrfToken: String?

    /// The shop it browses: held so that it stops only once its browsers are gone too.
    private let shop: TestShop
    /// The app whose router answers in this process, for a shop with no socket.
    private let app: QuickCartApp?

    init(shop: TestShop, sessionCookie: String? = nil) {
        self.shop = shop
        port = shop.port
        self.sessionCookie = sessionCookie
        app = shop.inProcess ? shop.app : nil
    }

    /// This browser's cookies on another instance's address: the same browser behind a load
    /// balancer that sent its next request elsewhere.
    func moved(to other: TestShop) -> Browser {
        let moved = Browser(shop: other, sessionCookie: sessionCookie)
        moved.searchesCookies = searchesCookies
        return moved
    }

    // MARK: - Requests

    /// `GET path` with the session cookie.
    func get(_ path: String, headers: [(String, String)] = []) throws -> Page {
        try request("GET", path, headers: headers)
    }

    /// `GET /search?q=…`, encoding the query as a browser's search form would.
    func search(_ query: String) throws -> Page {
        try get("/search?q=" + TestHTTPClient.formEncode(query))
    }

    /// Posts an urlencoded form, adding the CSRF token as `csrf` first.
    func post(_ path: String, form: [(String, String)] = [], csrf: CSRF = .fromPage, headers: [(String, String)] = []) throws -> Page {
        var fields = form
        switch csrf {
        case .fromPage: fields.insert(("csrf", try token()), at: 0)
        case .none: break
        case .value(let value): fields.insert(("csrf", value), at: 0)
        }
        let body = fields.map { "\(TestHTTPClient.formEncode($0.0))=\(TestHTTPClient.formEncode($0.1))" }.joined(separator: "&")
        return try request("POST", path, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    /// Submits the form holding the button named `name` on `page`, as a click would: the
    /// form's fields, then the button's own name and value; a field `changing` names is sent
    /// with the value given there instead (a form the page did not show).
    func click(_ name: String, on page: Page, changing: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> Page {
        let html = page.html
        let button = try #require(html.button(named: name), "no button named “\(name)” on \(page.summary)", sourceLocation: sourceLocation)
        try #require(!button.has("disabled"), "the button “\(name)” is disabled", sourceLocation: sourceLocation)
        let form = try #require(html.enclosing("form", of: button), "the button “\(name)” is in no form", sourceLocation: sourceLocation)
        #expect(form["method"]?.lowercased() == "post", "the form of “\(name)” should be method=post: \(form)", sourceLocation: sourceLocation)
        var fields: [(String, String)] = html.elements("input", in: form).compactMap { input in
            input["name"].map { ($0, changing[$0] ?? input["value"] ?? "") }
        }
        if let field = button["name"] { fields.append((field, button["value"] ?? "")) }
        let action = try #require(form["action"], "the form of “\(name)” has no action", sourceLocation: sourceLocation)
        return try post(action, form: fields, csrf: .none)
    }

    /// Sends any request with the session cookie, and keeps a cookie the answer sets.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Page {
        var headers = headers
        let kept = (sessionCookie.map { ["\(Page.sessionCookieName)=\($0)"] } ?? []) + searchesCookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if !kept.isEmpty {
            // One Cookie header, as browsers send: other cookies a test gives go in the same one.
            let pairs = kept.joined(separator: "; ")
            if let index = headers.firstIndex(where: { $0.0.lowercased() == "cookie" }) {
                headers[index].1 += "; " + pairs
            } else {
                headers.append(("Cookie", pairs))
            }
        }
        let answer = if let app {
            try InProcessRequests.send(to: app, method, target, headers: headers, body: body)
        } else {
            try TestHTTPClient(port: port).request(method, target, headers: headers, body: body)
        }
        let page = Page(answer, method: method, target: target)
        if let cookie = page.sessionCookie, cookie.value != sessionCookie {
            sessionCookie = cookie.value
            csrfToken = nil
        }
        if let token = page.csrfToken { csrfToken = token }
        for cookie in page.setCookies where cookie.name.hasSuffix("quickcart_searches") {
            searchesCookies[cookie.name] = cookie.attributes["max-age"] == "0" ? nil : cookie.value
        }
        return page
    }

    /// The session's CSRF token, read from a page (the cart) when none has been seen yet.
    func token() throws -> String {
        if let csrfToken { return csrfToken }
        let page = try get("/cart")
        return try #require(page.csrfToken, "the cart page carries no CSRF token: \(page.summary)")
    }

    /// Opens `GET /events` (or `path`, e.g. `/events?texts`) with the session cookie.
    func eventStream(timeout: Double = 5, path: String = "/events") throws -> TestEventStreamClient {
        var headers: [(String, String)] = []
        if let sessionCookie { headers.append(("Cookie", "\(Page.sessionCookieName)=\(sessionCookie)")) }
        return try TestEventStreamClient(port: port, path: path, headers: headers, timeout: timeout)
    }

    // MARK: - Reading the cart

    /// The cart page, read into the values tests compare.
    func cart(sourceLocation: SourceLocation = #_sourceLocation) throws -> CartSnapshot {
        let page = try get("/cart")
        try #require(page.status == 200, "GET /cart: expected 200, saw \(page.summary)", sourceLocation: sourceLocation)
        return page.cartSnapshot
    }
}

/// An answer, with the readings of its HTML that tests need.
struct Page {
    static let sessionCookieName = "quickcart_session"

    let response: TestHTTPClient.Response
    let method: String
    let target: String
    let html: HTMLDocument

    init(_ response: TestHTTPClient.Response, method: String, target: String) {
        self.response = response
        self.method = method
        self.target = target
        html = HTMLDocument(response.text)
    }

    var status: Int { response.status }
    var text: String { response.text }
    func header(_ name: String) -> String? { response.header(name) }
    var location: String? { header("Location") }

    /// A line for failure messages: the request, status, location and the page's message.
    var summary: String {
        var parts = ["\(method) \(target) → \(status)"]
        if let location { parts.append("Location: \(location)") }
        if let title = html.first("h1").map({ html.text(of: $0) }) { parts.append("h1 “\(title)”") }
        if let message = html.first("div", where: { $0["class"] == "error-page" }).map({ html.text(of: $0) }) {
            parts.append("says “\(message)”")
        }
        return parts.joined(separator: ", ")
    }

    // MARK: - Cookies

    /// A `Set-Cookie` header, split into its name, value and attributes.
    struct SetCookie {
        let name: String
        let value: String
        /// Attribute names in lower case; values as sent ("" for flags such as `HttpOnly`).
        let attributes: [String: String]
    }

    var setCookies: [SetCookie] {
        response.headers(named: "Set-Cookie").map { header in
            let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let pair = parts.first.map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) } ?? []
            var attributes: [String: String] = [:]
            for part in parts.dropFirst() {
                let field = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                attributes[field[0].lowercased()] = field.count > 1 ? String(field[1]) : ""
            }
            return SetCookie(name: pair.first.map(String.init) ?? "", value: pair.count > 1 ? String(pair[1]) : "", attributes: attributes)
        }
    }

    /// The session cookie this answer sets, if any.
    var sessionCookie: SetCookie? { setCookies.first { $0.name == Self.sessionCookieName } }

    // MARK: - Common parts

    /// The value of the first `csrf` field.
    var csrfToken: String? {
        html.first("input") { $0["name"] == "csrf" }?["value"]
    }

    /// Every `<nav aria-label="Tabs">`.
    var tabBars: [HTMLDocument.Tag] {
        html.elements("nav") { $0["aria-label"] == "Tabs" }
    }

    /// The links of the (first) tab bar, in order.
    var tabLinks: [HTMLDocument.Tag] {
        guard let nav = tabBars.first else { return [] }
        return html.elements("a", in: nav)
    }

    /// The `data-role="prominent"` link.
    var prominentLink: HTMLDocument.Tag? {
        html.first { $0["data-role"] == "prominent" }
    }

    /// The badge element, its text and whether it is hidden.
    var badge: (element: HTMLDocument.Tag, text: String, isHidden: Bool)? {
        guard let element = html.first(where: { $0.has("data-badge") }) else { return nil }
        return (element, html.text(of: element), element.has("hidden"))
    }

    /// The badge's text, or "hidden" when the badge is hidden: one value to compare.
    var badgeReading: String {
        guard let badge else { return "missing" }
        return badge.isHidden ? "hidden" : badge.text
    }

    /// The names of product cards (Home, Search), whatever their heading level.
    var productNames: [String] {
        html.elements { $0["class"] == "product__name" }.map { html.text(of: $0) }
    }

    /// The cart page as values.
    var cartSnapshot: CartSnapshot {
        let rows = html.elements("li") { $0.has("data-product") }.map { row in
            let name = html.first("h2", in: row).map { html.text(of: $0) } ?? ""
            let priceText = html.first("p", in: row) { $0["class"] == "cart-item__price" }.map { html.text(of: $0) } ?? ""
            let unitPrice = priceText.split(separator: " ").first { $0.hasPrefix("$") }.map(String.init) ?? priceText
            let quantity = html.first(in: row) { $0.has("data-quantity") }.flatMap { Int(html.text(of: $0)) } ?? -1
            return CartSnapshot.Row(id: row["data-product"] ?? "", name: name, unitPrice: unitPrice, quantity: quantity)
        }
        let subtotal = html.first { $0.has("data-subtotal") }.map { html.text(of: $0) } ?? "missing"
        return CartSnapshot(badge: badgeReading, subtotal: subtotal, rows: rows)
    }
}

/// What the cart page shows, in a form that compares and prints well.
struct CartSnapshot: Equatable, CustomStringConvertible {
    struct Row: Equatable, CustomStringConvertible {
        /// The product's id (the `data-product` attribute).
        let id: String
        let name: String
        let unitPrice: String
        let quantity: Int

        var description: String { "\(quantity) × \(name) at \(unitPrice)" }
    }

    /// The badge's text, or "hidden".
    let badge: String
    let subtotal: String
    let rows: [Row]

    /// The rows without ids, for comparing with expectations.
    var lines: [String] { rows.map(\.description) }

    /// The row of the product named `name`.
    func row(_ name: String) -> Row? { rows.first { $0.name == name } }

    var description: String { "badge \(badge), subtotal \(subtotal), \(lines)" }

    /// The demo cart every new session starts with.
    static let demoLines = ["1 × Trail Running Shoes at $128.00", "2 × Insulated Water Bottle at $24.50"]
}

/// The demo catalog's product names, and the catalog ids the pages show for them.
enum Products {
    static let shoes = "Trail Running Shoes"
    static let bottle = "Insulated Water Bottle"
    static let tent = "Ultralight Tent"
}

extension TestShop {
    /// The catalog id of a product, read from the `product` field of its add form on
    /// Search, by a browser of its own (so no test session records the search).
    func productID(named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let page = try browser().search(name)
        let html = page.html
        let heading = try #require(html.first { $0["class"] == "product__name" && html.text(of: $0) == name },
                                   "no product named \(name) on \(page.summary)", sourceLocation: sourceLocation)
        let card = try #require(html.enclosing("li", of: heading), sourceLocation: sourceLocation)
        let field = try #require(html.first("input", in: card) { $0["name"] == "product" }, sourceLocation: sourceLocation)
        return try #require(field["value"], sourceLocation: sourceLocation)
    }
}

extension Browser {
    /// Posts Add for the product named `name`, its id read off its shop's Search: the answer.
    func add(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Page {
        try post("/cart/items", form: [("product", try shop.productID(named: name, sourceLocation: sourceLocation))])
    }
}
