import Foundation
import HTTPTesting
import Testing

extension ShopTests {
    /// The session cookie, forged cookies, and carts that stay with their session.
    @Suite("Sessions") struct SessionTests {
        @Test("The first response sets an HttpOnly, SameSite=Lax session cookie for Path=/")
        func firstResponseSetsTheSessionCookie() throws {
            let page = try TestShop(inProcess: true).browser().get("/")
            let cookies = page.setCookies.filter { $0.name == Page.sessionCookieName }
            try #require(cookies.count == 1, "expected one quickcart_session cookie, saw \(page.response.headers(named: "Set-Cookie"))")
            let cookie = cookies[0]
            #expect(!cookie.value.isEmpty)
            #expect(cookie.attributes["httponly"] != nil, "the session cookie must be HttpOnly: \(cookie.attributes)")
            #expect(cookie.attributes["samesite"]?.lowercased() == "lax", "the session cookie must be SameSite=Lax: \(cookie.attributes)")
            #expect(cookie.attributes["path"] == "/", "the session cookie must be for Path=/: \(cookie.attributes)")
        }

        @Test("A request with the cookie gets no new one, except the first change's answer: it stores the session under a new id")
        func knownSessionGetsNoNewCookie() throws {
            let browser = try TestShop(inProcess: true).browser()
            let first = try browser.get("/")
            let cookie = try #require(first.sessionCookie?.value)
            let second = try browser.get("/cart")
            #expect(second.sessionCookie == nil, "a second request with the cookie was given another: \(second.response.headers(named: "Set-Cookie"))")
            let change = try browser.click("Increase quantity of \(Products.shoes)", on: second)
            #expect(change.status == 303, "increase: \(change.summary)")
            let stored = try #require(change.sessionCookie?.value, "the change that stores the session moves it to a new cookie")
            #expect(stored.prefix { $0 != "." } != cookie.prefix { $0 != "." })
            let next = try browser.click("Increase quantity of \(Products.shoes)", on: second)
            #expect(next.status == 303, "the page's form still works with the new cookie: \(next.summary)")
            #expect(next.sessionCookie == nil, "a post of a stored session was given another cookie")
            let after = try browser.get("/profile")
            #expect(after.sessionCookie == nil, "a request after the first change was given another cookie")
            #expect(browser.sessionCookie == stored)
            #expect(try browser.cart().badge == "5")
        }

        /// Cookies no server of this shop signed, or altered ones.
        static let forgedCookies: [(String, @Sendable (String) -> String)] = [
            ("garbage", { _ in "garbage" }),
            ("empty", { _ in "" }),
            ("altered signature", { real in String(real.dropLast()) + (real.hasSuffix("0") ? "1" : "0") }),
            ("altered id", { real in (real.hasPrefix("a") ? "b" : "a") + real.dropFirst() }),
            ("altered time", { real in
                let parts = real.split(separator: ".")
                return "\(parts[0]).\((Int(parts[1]) ?? 0) + 1).\(parts[2])"
            }),
            ("no signature", { real in real.split(separator: ".").prefix(2).joined(separator: ".") }),
            ("another format", { _ in "eyJhbGciOiJub25lIn0.eyJzaWQiOiIxIn0." }),
            ("too long", { real in String(repeating: real, count: 40) }),
            ("quotes and escapes", { _ in "\"%00%ff\\\"" }),
        ]

        @Test("A forged or altered cookie gets a fresh session with the demo cart, never an error", arguments: forgedCookies.map(\.0))
        func forgedCookieGetsAFreshSession(kind: String) throws {
            let shop = try TestShop(inProcess: true)
            // A real session that has changed its cart, so stealing it would show.
            let owner = shop.browser()
            #expect(try owner.post("/cart/items/\(try shop.productID(named: Products.shoes))/quantity", form: [("quantity", "7")]).status == 303)
            let real = try #require(owner.sessionCookie)
            let forged = try #require(Self.forgedCookies.first { $0.0 == kind }).1(real)

            let intruder = shop.browser(cookie: forged)
            let page = try intruder.get("/cart")
            try #require(page.status == 200, "a \(kind) cookie: expected 200, saw \(page.summary)")
            let fresh = try #require(page.sessionCookie, "a \(kind) cookie must be replaced by a fresh session cookie")
            #expect(fresh.value != forged && fresh.value != real)
            #expect(page.cartSnapshot.lines == CartSnapshot.demoLines, "a \(kind) cookie must see a new demo cart: \(page.cartSnapshot)")
            #expect(page.cartSnapshot.badge == "3")
            // And the owner's cart is untouched.
            #expect(try owner.cart().row(Products.shoes)?.quantity == 7)
        }

        @Test("A cookie from another shop (another secret) gets a fresh session")
        func cookieOfAnotherShopGetsAFreshSession() throws {
            let other = try TestShop(inProcess: true)
            let foreign = other.browser()
            _ = try foreign.post("/cart/items/\(try other.productID(named: Products.shoes))/quantity", form: [("quantity", "9")])
            let cookie = try #require(foreign.sessionCookie)

            let shop = try TestShop(inProcess: true)
            let page = try shop.browser(cookie: cookie).get("/cart")
            #expect(page.status == 200)
            #expect(page.sessionCookie != nil, "a cookie signed by another shop must be replaced")
            #expect(page.cartSnapshot.lines == CartSnapshot.demoLines)
        }

        @Test("Session A's changes are invisible to session B")
        func cartsAreIsolated() throws {
            let shop = try TestShop(inProcess: true)
            let alice = shop.browser(), bob = shop.browser()
            _ = try bob.get("/")
            let tent = try shop.productID(named: Products.tent)
            #expect(try alice.click("Increase quantity of \(Products.shoes)", on: try alice.get("/cart")).status == 303)
            #expect(try alice.click("Remove \(Products.bottle)", on: try alice.get("/cart")).status == 303)
            #expect(try alice.post("/cart/items", form: [("product", tent), ("return_to", "/")]).status == 303)
            #expect(try alice.post("/profile/name", form: [("display_name", "Alice")]).status == 303)
            _ = try alice.search("tent")
            let aliceCart = try alice.cart()
            #expect(aliceCart.lines == ["2 × Trail Running Shoes at $128.00", "1 × Ultralight Tent at $349.00"])

            let bobCart = try bob.cart()
            #expect(bobCart.lines == CartSnapshot.demoLines, "B must still see the demo cart: \(bobCart)")
            #expect(bobCart.badge == "3")
            let bobProfile = try bob.get("/profile")
            #expect(!bobProfile.text.contains("Alice"), "B's profile shows A's name")
            let bobSearch = try bob.get("/search")
            #expect(bobSearch.html.first { $0["id"] == "recent-title" } == nil, "B sees recent searches it never made")
        }

        @Test("Posting to another session's item ids changes only one's own cart")
        func postsReachOnlyTheirOwnCart() throws {
            let shop = try TestShop(inProcess: true)
            let alice = shop.browser(), bob = shop.browser()
            let tent = try shop.productID(named: Products.tent)
            _ = try alice.post("/cart/items", form: [("product", tent)])
            let aliceBefore = try alice.cart()
            let shoes = try #require(aliceBefore.row(Products.shoes)?.id)

            // Bob has no tent: setting its quantity is a 404 and changes nothing anywhere.
            let missing = try bob.post("/cart/items/\(tent)/quantity", form: [("quantity", "5")])
            #expect(missing.status == 404, "B setting the quantity of an item only A has: \(missing.summary)")
            // Bob has shoes of his own: only his change.
            #expect(try bob.post("/cart/items/\(shoes)/quantity", form: [("quantity", "6")]).status == 303)
            #expect(try bob.post("/cart/items/\(tent)/remove").status == 303)
            #expect(try bob.placeOrder().status == 303)

            #expect(try alice.cart() == aliceBefore, "A's cart changed through B's posts")
            #expect(try bob.cart().badge == "hidden")
            let aliceProfile = try alice.get("/profile")
            #expect(aliceProfile.html.elements("li") { $0["class"] == "order" }.isEmpty, "B's order shows on A's profile")
        }
    }
}
