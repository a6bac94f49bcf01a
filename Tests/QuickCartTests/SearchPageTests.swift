import HTTPTesting
import Testing

extension ShopTests {
    /// Search by the stores' engine, a refused search shown on the Search page, clearing
    /// Recent, and error pages' way back.
    @Suite("Search page and error pages") struct SearchPageTests {
        private static func recent(_ page: Page) -> [String]? {
            let html = page.html
            guard let heading = html.first(where: { html.text(of: $0) == "Recent" && $0.name.hasPrefix("h") }),
                  let section = html.enclosing("section", of: heading) else { return nil }
            return html.elements("a", in: section).map { html.text(of: $0) }
        }

        @Test("“tents” finds the Ultralight Tent first, on the page", arguments: ["tents", "tent", "ultralight te"])
        func pluralFindsTheTent(query: String) throws {
            let page = try TestShop(inProcess: true).browser().search(query)
            #expect(page.status == 200, "\(page.summary)")
            #expect(page.productNames.first == Products.tent, "“\(query)” found \(page.productNames)")
        }

        @Test("Operators and quotes in a search are searched as words, never an error",
              arguments: ["\"tent", "tent OR", "NEAR(", "tent:*", "-", "*", "a & b | !c", "(((", "'"])
        func syntaxIsNotAnError(query: String) throws {
            let page = try TestShop(inProcess: true).browser().search(query)
            #expect(page.status == 200, "\(page.summary)")
        }

        @Test("A Unicode prepended letter before a quote, colon or ampersand is no syntax: 200, on the page",
              arguments: ["%E0%B5%8E%22%E0%B5%8E:", "%E0%B5%8E%26", "%E0%B5%8E(", "%E0%B5%8E%22tent", "tent%E0%B5%8E%22"])
        func prependedLettersAreNotSyntax(encoded: String) throws {
            let page = try TestShop(inProcess: true).browser().get("/search?q=" + encoded)
            #expect(page.status == 200, "\(page.summary)")
        }

        /// The Search link of the tab bar on `page`.
        private static func searchTab(_ page: Page) -> String? {
            page.tabLinks.first { ($0["href"] ?? "").hasPrefix("/search") }?["href"]
        }

        @Test("Search keeps its place for a new visitor as for a stored one: search, Home, Search shows the same search",
              arguments: [false, true])
        func placeKeptForEveryVisitor(stored: Bool) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            _ = try browser.get("/")
            if stored { try SearchTests.store(browser) }
            _ = try browser.search("bottle")
            let home = try browser.get("/")
            let tab = try #require(Self.searchTab(home))
            #expect(tab == "/search?q=bottle", "the Search tab leads to \(tab)")
            let back = try browser.get(tab)
            #expect(back.html.first("input") { $0["name"] == "q" }?["value"] == "bottle")
            #expect(back.productNames.contains(Products.bottle), "\(back.productNames)")
            #expect(Self.searchTab(try shop.browser().get("/")) == "/search", "another visitor's Search tab is its root")
        }

        @Test("A search from another site's link shows its results but is not remembered; this site's own is",
              arguments: [false, true])
        func crossSiteSearchWritesNothing(stored: Bool) throws {
            let browser = try TestShop(inProcess: true).browser()
            _ = try browser.get("/")
            if stored { try SearchTests.store(browser) }
            _ = try browser.get("/search?q=tent", headers: [("Sec-Fetch-Site", "same-origin")])
            let lure = "Call 555-0100 to claim refund"
            let forged = [
                [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "navigate")],
                [("Sec-Fetch-Site", "same-site")],
                [("Referer", "https://evil.example/page")],
                [("Origin", "https://evil.example")],
            ]
            for headers in forged {
                let page = try browser.get("/search?q=" + TestHTTPClient.formEncode(lure), headers: headers)
                #expect(page.status == 200, "\(headers): \(page.summary)")
                #expect(page.html.first("input") { $0["name"] == "q" }?["value"] == lure, "the results still show")
                #expect(Self.recent(page) == ["tent"], "\(headers) wrote Recent: \(Self.recent(page) ?? [])")
            }
            #expect(Self.searchTab(try browser.get("/")) == "/search?q=tent", "the tab's place is unchanged")
            for headers in [[("Sec-Fetch-Site", "none")], [("Referer", "http://127.0.0.1/search")], []] {
                _ = try browser.get("/search?q=shoe", headers: headers)
                #expect(Self.recent(try browser.get("/search"))?.first == "shoe", "\(headers) should be remembered")
                _ = try browser.get("/search?q=tent")
            }
        }

        @Test("A refused search shows Search again, 400, the query kept in the field, the reason beside it",
              arguments: [String(repeating: "W", count: 101), "tent\u{1}x"])
        func refusedSearchKeepsTheQuery(query: String) throws {
            let browser = try TestShop(inProcess: true).browser()
            try SearchTests.store(browser)
            _ = try browser.search("tent")
            let page = try browser.search(query)
            #expect(page.status == 400, "\(page.summary)")
            let html = page.html
            #expect(html.first("h1").map { html.text(of: $0) } == "Search", "\(page.summary)")
            let field = try #require(html.first("input") { $0["name"] == "q" }, "no search field")
            #expect(field["value"] == query.filter { $0 != "\u{1}" }, "the query should stay in the field")
            #expect(field["aria-invalid"] == "true")
            // Focus starts in the field, whose name, state and reason a screen reader then reads.
            #expect(field["autofocus"] != nil, "the refused field does not take focus")
            let problemID = try #require(field["aria-describedby"], "the field names no description")
            let problem = try #require(html.first { $0["id"] == problemID }, "no element #\(problemID)")
            let reason = html.text(of: problem)
            #expect(reason.contains(query.count > 100 ? "100 characters" : "line breaks"), "reason: “\(reason)”")
            #expect(page.productNames.isEmpty, "a refused search searched: \(page.productNames)")
            #expect(Self.recent(page) == ["tent"], "a refused search is not remembered")
            #expect(html.first("div") { $0["class"] == "error-page" } == nil, "the generic error page was shown")
        }

        @Test("Clear forgets the session's recent searches, with a CSRF token, back to Search")
        func clearRecent() throws {
            let browser = try TestShop(inProcess: true).browser()
            try SearchTests.store(browser)
            for query in ["tent", "shoe"] { _ = try browser.search(query) }
            let search = try browser.search("bottle")
            #expect(Self.recent(search) == ["bottle", "shoe", "tent"])
            let forged = try browser.post("/search/recent/clear", csrf: .value("forged"))
            #expect(forged.status == 403, "\(forged.summary)")
            #expect(Self.recent(try browser.get("/search")) == ["bottle", "shoe", "tent"], "a forged post cleared")
            let cleared = try browser.click("Clear recent searches", on: search)
            #expect(cleared.status == 303, "\(cleared.summary)")
            #expect(cleared.location == "/search?q=bottle")
            let after = try browser.get("/search")
            #expect(Self.recent(after) == nil, "Recent should be gone: \(Self.recent(after) ?? [])")
        }

        @Test("Clear also forgets the searches of a session not stored yet, storing it, so that no copy of their cookie brings them back")
        func clearRecentOfASessionNotStored() throws {
            let browser = try TestShop(inProcess: true).browser()
            _ = try browser.get("/search")
            _ = try browser.search("tent")
            let search = try browser.search("shoe")
            #expect(Self.recent(search) == ["shoe", "tent"], "searches wait in their cookie until the session is stored")
            let copy = try #require(search.setCookies.first { $0.name == "quickcart_searches" }?.value)
            let cookie = browser.sessionCookie
            let cleared = try browser.click("Clear recent searches", on: search)
            #expect(cleared.status == 303, "\(cleared.summary)")
            #expect(cleared.setCookies.first { $0.name == "quickcart_searches" }?.attributes["max-age"] == "0", "\(cleared.summary)")
            #expect(browser.sessionCookie != cookie, "clearing, a change, stores the session under its new id")
            #expect(Self.recent(try browser.get("/search")) == nil)
            // A tab's request that was on its way with the cookie from before Clear.
            let again = try browser.get("/search?q=stove", headers: [("Cookie", "quickcart_searches=\(copy)")])
            #expect(Self.recent(again) == ["stove"], "the copy brought back what Clear forgot")
        }

        @Test("Searches made before the first change: the Search tab returns to them after it; sign-out clears their cookie")
        func searchesWaitingPastTheFirstChange() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            _ = try browser.get("/")
            _ = try browser.search("tent")
            let copy = try #require(try browser.search("bottle").setCookies.first { $0.name == "quickcart_searches" }?.value)
            let change = try browser.post("/cart/items", form: [("product", try shop.productID(named: Products.tent))])
            #expect(change.status == 303, "\(change.summary)")
            #expect(change.setCookies.first { $0.name == "quickcart_searches" }?.attributes["max-age"] == "0", "the stored searches' cookie stayed")
            let home = try browser.get("/")
            let tab = home.tabLinks.first { ($0["href"] ?? "").hasPrefix("/search") }?["href"]
            #expect(tab == "/search?q=bottle", "the stored session's Search tab forgot the waiting search")
            #expect(Self.recent(try browser.search("stove")) == ["stove", "bottle", "tent"], "the first change stored the waiting searches")
            #expect(try browser.post("/search/recent/clear").status == 303)
            let replayed = try browser.get("/search", headers: [("Cookie", "quickcart_searches=\(copy)")])
            #expect(Self.recent(replayed) == nil, "a copy of the cookie from before the first change brought its searches back")

            let other = shop.browser()
            _ = try other.get("/")
            _ = try other.search("secret gift")
            let signedOut = try other.post("/profile/sign-out")
            #expect(signedOut.status == 303, "\(signedOut.summary)")
            let cleared = signedOut.setCookies.first { $0.name == "quickcart_searches" }
            #expect(cleared?.attributes["max-age"] == "0", "sign-out left the searches' cookie: \(signedOut.setCookies.map(\.name))")
        }

        @Test("Search counts the products of each category, as Home does")
        func categoriesWithCounts() throws {
            let browser = try TestShop(inProcess: true).browser()
            for path in ["/", "/search"] {
                let html = try browser.get(path).html
                #expect(html.first("h2") { html.text(of: $0) == "Shop by category" } != nil, "\(path)")
                let links = html.elements("a") { ($0["href"] ?? "").hasPrefix("/search?q=") }.map { html.text(of: $0) }
                #expect(links.contains("Camping (5)"), "\(path): \(links)")
            }
        }

        @Test("A malformed address is explained in a shopper's words")
        func malformedAddressWording() throws {
            let page = try TestShop().browser().get("/search?q=%zz")
            #expect(page.status == 400)
            #expect(page.text.contains("This address has a mistake in it."), "\(page.summary)")
            #expect(!page.text.contains("percent-escape") && !page.text.contains("UTF-8"), "\(page.summary)")
        }

        @Test("A form MicroHTTP cannot read is explained in a shopper's words, by the error's reason", arguments: [
            ("product=1%zz", "This form could not be read. Go back and try again."),
            ("product=%ff", "This form contains characters that could not be read. Go back and try again."),
        ])
        func unreadableFormWording(body: String, wording: String) throws {
            let browser = try TestShop().browser()
            _ = try browser.get("/")
            let page = try browser.request(
                "POST", "/cart/items", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8)
            )
            #expect(page.status == 400)
            #expect(page.text.contains(wording), "\(page.summary)")
            #expect(!page.text.contains("percent-escape") && !page.text.contains("UTF-8"), "\(page.summary)")
        }

        /// The error page's button: its address and words.
        private static func back(_ page: Page) throws -> (href: String, label: String) {
            let html = page.html
            let box = try #require(html.first("div") { $0["class"] == "error-page" }, "not an error page: \(page.summary)")
            let link = try #require(html.first("a", in: box), "no way on: \(page.summary)")
            return (link["href"] ?? "", html.text(of: link))
        }

        @Test("An error page leads back where the shopper came from: this site's Referer, else by status and tab")
        func errorPagesWayBack() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let host = "127.0.0.1"
            // A session first, as a shopper arriving from the shop has: its forms' token is the one posts carry.
            _ = try browser.get("/cart")
            let fromSearch = try browser.get("/search?q=%zz", headers: [("Referer", "http://\(host)/search?q=tent")])
            #expect(try Self.back(fromSearch) == ("/search", "Back to Search"), "the Referer is the failed page itself")
            let fromHome = try browser.get("/search?q=%zz", headers: [("Referer", "http://\(host)/#product-3")])
            #expect(try Self.back(fromHome) == ("/", "Back to Home"))
            // Checkout is under Cart: a Place order refused without a Referer leads back there.
            let placed = try browser.post("/checkout/place", form: [("version", "x"), ("lines", ""), ("delivery", "0"), ("details", "0")])
            #expect(placed.status == 400)
            #expect(try Self.back(placed) == ("/cart", "Back to your cart"), "\(placed.summary)")
            let missing = try browser.get("/nowhere", headers: [("Referer", "http://\(host)/search?q=tent")])
            #expect(try Self.back(missing) == ("/search?q=tent", "Back to Search"))
            let foreign = try browser.get("/nowhere", headers: [("Referer", "http://evil.example/cart")])
            #expect(try Self.back(foreign) == ("/", "Go to Home"), "another site's Referer is no way back")
            let lookalike = try browser.get("/nowhere", headers: [("Referer", "http://\(host).evil.example/cart")])
            #expect(try Self.back(lookalike) == ("/", "Go to Home"))
            // An order not found is under Profile, where the orders are listed.
            let order = try browser.get("/orders/999")
            #expect(order.status == 404 && order.text.contains("Your orders are listed on Profile"), "\(order.summary)")
            #expect(try Self.back(order) == ("/profile", "Back to Profile"))
            let noReferer = try browser.get("/search?q=%ff")
            #expect(try Self.back(noReferer) == ("/search", "Back to Search"), "never “Back to your cart” from Search")
            let profile = try browser.post("/profile/theme", form: [("theme", "purple")])
            #expect(profile.status == 400)
            #expect(try Self.back(profile) == ("/profile", "Back to Profile"))
            let fromForm = try browser.post("/cart/items", form: [("product_id", "x"), ("return_to", "/search?q=tent")])
            #expect(fromForm.status == 400 || fromForm.status == 404, "\(fromForm.summary)")
            #expect(try Self.back(fromForm) == ("/search?q=tent", "Back to Search"), "the form's return_to is where it came from")
        }
    }
}
