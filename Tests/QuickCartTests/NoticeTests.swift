import HTTPTesting
import Testing

extension ShopTests {
    /// Every cart change says what happened on the page it leads to, once, through a
    /// short-lived cookie; nothing is stored for it.
    @Suite("Notices") struct NoticeTests {
        /// The notice cookie an answer sets, if any.
        static func noticeCookie(of page: Page) -> Page.SetCookie? {
            page.setCookies.first { $0.name == "quickcart_notice" }
        }

        /// The page `path` as a browser that kept `answer`'s notice cookie would get it.
        static func next(_ browser: Browser, after answer: Page, path: String) throws -> Page {
            let cookie = try #require(noticeCookie(of: answer), "no notice cookie on \(answer.summary)")
            return try browser.get(path, headers: [("Cookie", "quickcart_notice=\(cookie.value)")])
        }

        /// The text of the page's notice, if it shows one.
        static func notice(on page: Page) -> String? {
            page.html.first { $0["data-notice"] != nil }.map { page.html.text(of: $0) }
        }

        @Test("Add sets a short-lived, HttpOnly, SameSite=Lax notice that the next page shows once and clears")
        func addLeavesANotice() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let answer = try browser.click("Add \(Products.tent) to cart", on: try browser.get("/"))
            let cookie = try #require(Self.noticeCookie(of: answer))
            #expect(cookie.attributes["path"] == "/" && cookie.attributes["httponly"] != nil && cookie.attributes["samesite"] == "Lax")
            let age = try #require(cookie.attributes["max-age"].flatMap { Int($0) })
            #expect((1...120).contains(age), "the notice should live about a minute, not \(age) s")

            let home = try Self.next(browser, after: answer, path: "/")
            #expect(Self.notice(on: home) == "Added \(Products.tent) — 1 in cart")
            let cleared = try #require(Self.noticeCookie(of: home), "the page that shows the notice should clear it")
            #expect(cleared.value.isEmpty && cleared.attributes["max-age"] == "0")
            #expect(Self.notice(on: try browser.get("/")) == nil, "a page without the cookie shows no notice")
        }

        @Test("The steppers, the limit and Remove each say what happened")
        func wording() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let increased = try browser.click("Increase quantity of \(Products.shoes)", on: try browser.get("/cart"))
            #expect(Self.notice(on: try Self.next(browser, after: increased, path: "/cart")) == "\(Products.shoes) — 2 in cart")

            let id = try shop.productID(named: Products.shoes)
            _ = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "9"), ("return_to", "/cart")])
            let tenth = try browser.click("Increase quantity of \(Products.shoes)", on: try browser.get("/cart"))
            #expect(Self.notice(on: try Self.next(browser, after: tenth, path: "/cart"))
                == "You can have at most 10 of \(Products.shoes) — 10 in cart")
            let refused = try browser.post("/cart/items", form: [("product", id), ("return_to", "/")])
            #expect(Self.notice(on: try Self.next(browser, after: refused, path: "/")) == "You can have at most 10 of \(Products.shoes)")
            #expect(try browser.cart().row(Products.shoes)?.quantity == 10)

            let removed = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            #expect(Self.notice(on: try Self.next(browser, after: removed, path: "/cart")) == "Removed \(Products.bottle)")
        }

        @Test("Removing the only row leads back to the cart without an anchor")
        func removingTheLastRow() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            _ = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            let answer = try browser.click("Remove \(Products.shoes)", on: try browser.get("/cart"))
            #expect(answer.status == 303 && answer.location == "/cart", "\(answer.summary)")
        }

        @Test("A page the script re-reads because the cart changed elsewhere leaves the notice for its own page")
        func refreshLeavesTheNotice() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let answer = try browser.click("Add \(Products.tent) to cart", on: try browser.get("/"))
            let cookie = try #require(Self.noticeCookie(of: answer))
            let refresh = try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(cookie.value)"), ("X-QuickCart-Refresh", "1")])
            #expect(Self.notice(on: refresh) == nil && Self.noticeCookie(of: refresh) == nil)
        }

        @Test("A notice cookie with control characters or too much text shows nothing", arguments: [
            "%0D%0ASet-Cookie%3A%20x", String(repeating: "A", count: 300),
        ])
        func oddNoticeIsIgnored(value: String) throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let page = try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(value)")])
            #expect(page.status == 200 && Self.notice(on: page) == nil)
        }
    }
}
