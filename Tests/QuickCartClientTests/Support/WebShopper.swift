import Foundation
import HTTPTesting
import Testing

/// A browser of the web shop, as the client's tests need one: it keeps its session cookie,
/// posts forms with the CSRF token its pages carry, and reads the badge, a join code and the
/// devices list from the pages.
final class WebShopper {
    static let cookieName = "quickcart_session"

    let port: Int
    private(set) var cookie: String?
    private var csrf: String?

    init(port: Int) {
        self.port = port
    }

    /// `GET path` with the cookie.
    func get(_ path: String) throws -> TestHTTPClient.Response {
        try send("GET", path)
    }

    /// Posts a form with the session's CSRF token first, as the shop's forms do.
    func post(_ path: String, form: [(String, String)] = []) throws -> TestHTTPClient.Response {
        if csrf == nil { _ = try get("/cart") }
        let fields = [("csrf", try #require(csrf, "no CSRF token on the cart page"))] + form
        let body = fields.map { TestHTTPClient.formEncode($0.0) + "=" + TestHTTPClient.formEncode($0.1) }.joined(separator: "&")
        return try send("POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    private func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> TestHTTPClient.Response {
        let cookieHeader = cookie.map { [("Cookie", "\(Self.cookieName)=\($0)")] } ?? []
        let response = try TestHTTPClient(port: port).request(method, path, headers: headers + cookieHeader, body: body)
        for header in response.headers(named: "Set-Cookie") where header.hasPrefix(Self.cookieName + "=") {
            let value = String(header.dropFirst(Self.cookieName.count + 1).prefix { $0 != ";" })
            if value != cookie { cookie = value; csrf = nil }
        }
        if let token = Self.first(#"name="csrf" value="([^"]+)""#, in: response.text) { csrf = token }
        return response
    }

    /// The Cart tab's badge on the cart page: its number, or 0 when it is hidden.
    func badge() throws -> Int {
        let page = try get("/cart")
        let badge = try #require(Self.first(#"<span class="tab__badge" data-badge[^>]*>([^<]*)<"#, in: page.text), "no badge on the cart page")
        return page.text.contains(#"data-badge aria-hidden="true" hidden>"#) ? 0 : try #require(Int(badge), "badge “\(badge)”")
    }

    /// "Continue on another device": posts `/profile/code` as the button does and reads the
    /// code its page shows.
    func showCode() throws -> String {
        #expect(try post("/profile/code").status == 303)
        let page = try get("/profile/code")
        return try #require(Self.first("([BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4})", in: page.text), "no code on \(page.text)")
    }

    /// Signs out, from Profile's devices list, the device whose name contains `name`.
    func signOutDevice(named name: String) throws -> TestHTTPClient.Response {
        let profile = try get("/profile").text
        let rows = profile.components(separatedBy: #"<li class="device">"#).dropFirst()
        let row = try #require(rows.first { $0.contains(name) }, "no device named \(name) on Profile")
        let handle = try #require(Self.first(#"name="device" value="([^"]+)""#, in: row))
        return try post("/profile/devices/sign-out", form: [("device", handle)])
    }

    /// Opens the web's own event stream with the cookie.
    func eventStream() throws -> TestEventStreamClient {
        try TestEventStreamClient(port: port, headers: cookie.map { [("Cookie", "\(Self.cookieName)=\($0)")] } ?? [], timeout: 10)
    }

    /// The first capture group of `pattern` in `text`.
    private static func first(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
              let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}

extension APIShop {
    /// A fresh shop of `backend` and a browser's shopper on it: where the tests of the client
    /// beside the web start.
    static func withBrowser(_ backend: Backend) throws -> (shop: APIShop, web: WebShopper) {
        let shop = try APIShop(backend)
        return (shop, WebShopper(port: shop.port))
    }
}
