import MicroHTTP
@testable import QuickCart
import Testing

@Suite("Recent searches in a cookie") struct RecentSearchCookiesTests {
    private static let cookies = RecentSearchCookies(secret: [UInt8](repeating: 7, count: 32), secure: false, lifetimeSeconds: 3600)

    private static func request(carrying cookie: Cookie) -> Request {
        Request(method: .get, path: "/search", cookies: [cookie.name: cookie.value])
    }

    @Test("Searches come back newest first, spelt as they were typed, for the client they were written for")
    func roundTrip() {
        let searches = ["Zelt für 2", "tent*poles", "café ☕", "100% wool"]
        let request = Self.request(carrying: Self.cookies.keeping(searches, forClient: "client-a").cookie)
        #expect(Self.cookies.searches(in: request, forClient: "client-a") == searches)
        #expect(Self.cookies.searches(in: request, forClient: "client-b").isEmpty, "another client's searches were shown")
        let cookie = Self.cookies.keeping(searches, forClient: "client-a").cookie
        #expect(cookie.name == "quickcart_searches" && cookie.maxAge == 3600 && cookie.httpOnly && cookie.sameSite == .lax)
        let secure = RecentSearchCookies(secret: [UInt8](repeating: 7, count: 32), secure: true, lifetimeSeconds: 3600)
        #expect(secure.keeping(searches, forClient: "client-a").cookie.name == "__Host-quickcart_searches")
    }

    @Test("A cookie changed or written by anyone else shows nothing", arguments: [
        "", "*", "0123456789abcdef0123456789abcdef*tent", "nonsense",
    ])
    func forged(value: String) {
        let request = Request(method: .get, path: "/search", cookies: ["quickcart_searches": value])
        #expect(Self.cookies.searches(in: request, forClient: "client-a").isEmpty)
    }

    @Test("A search added to a signed cookie, or one swapped for another, breaks its signature")
    func tampered() {
        let value = Self.cookies.keeping(["tent"], forClient: "client-a").cookie.value
        for changed in [value + "*stove", value.replacingOccurrences(of: "*tent", with: "*tents")] {
            let request = Request(method: .get, path: "/search", cookies: ["quickcart_searches": changed])
            #expect(Self.cookies.searches(in: request, forClient: "client-a").isEmpty, "\(changed)")
        }
        let other = RecentSearchCookies(secret: [UInt8](repeating: 8, count: 32), secure: false, lifetimeSeconds: 3600)
        #expect(other.searches(in: Self.request(carrying: Self.cookies.keeping(["tent"], forClient: "client-a").cookie), forClient: "client-a").isEmpty)
    }

    @Test("At most storage's limit, and only the newest that fit in the cookie's bytes")
    func bounded() {
        let many = (1...8).map { "search \($0)" }
        let request = Self.request(carrying: Self.cookies.keeping(many, forClient: "c").cookie)
        #expect(Self.cookies.searches(in: request, forClient: "c") == Array(many.prefix(SearchHistory.limit)))
        // 100 characters of three UTF-8 bytes each take 900 bytes percent-encoded: one fits.
        let long = String(repeating: "☕", count: 100)
        let (kept, cookie) = Self.cookies.keeping([long, long + "!", "tent"], forClient: "c")
        #expect(cookie.value.utf8.count <= RecentSearchCookies.maximumBytes + 40)
        #expect(kept == [long], "a page shows only what its cookie keeps")
        #expect(Self.cookies.searches(in: Self.request(carrying: cookie), forClient: "c") == [long])
        #expect(Self.cookies.keeping([], forClient: "c").cookie.maxAge == 0, "no searches clear the cookie")
    }
}
