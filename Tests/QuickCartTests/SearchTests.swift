import HTTPTesting
import Testing

extension ShopTests {
    /// The Search tab: matching, escaping and recent searches.
    @Suite("Search") struct SearchTests {
        /// Stores the browser's session, so its searches are kept in storage.
        static func store(_ browser: Browser, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let answer = try browser.post("/profile/theme", form: [("theme", "dark")])
            #expect(answer.status == 303, "storing the session: \(answer.summary)", sourceLocation: sourceLocation)
        }

        @Test("A search finds products by name, ignoring case", arguments: ["shoe", "SHOE", "Shoe", "running shoes", "  shoe  "])
        func findsByNameIgnoringCase(query: String) throws {
            let page = try TestShop(inProcess: true).browser().search(query)
            try #require(page.status == 200, "\(page.summary)")
            #expect(page.productNames.contains(Products.shoes), "“\(query)” should find \(Products.shoes), found \(page.productNames)")
            #expect(page.html.button(named: "Add \(Products.shoes) to cart") != nil, "results need add buttons")
        }

        @Test("A search matches descriptions and categories")
        func findsByDescriptionAndCategory() throws {
            let browser = try TestShop(inProcess: true).browser()
            let cushioned = try browser.search("cushioned").productNames
            #expect(cushioned.contains(Products.shoes), "“cushioned” is in the shoes' description; found \(cushioned)")
            let camping = try browser.search("camping").productNames
            #expect(camping.contains(Products.tent), "“camping” is the tent's category; found \(camping)")
            #expect(!camping.contains(Products.shoes), "“camping” found \(camping)")
            let hydration = try browser.search("HYDRATION").productNames
            #expect(hydration.contains(Products.bottle), "found \(hydration)")
        }

        @Test("A search without matches shows an empty state")
        func noMatchShowsAnEmptyState() throws {
            let page = try TestShop(inProcess: true).browser().search("zzyzx")
            #expect(page.status == 200)
            #expect(page.productNames.isEmpty, "found \(page.productNames)")
            let empty = try #require(page.html.first { ($0["class"] ?? "").split(separator: " ").contains("empty-state") }, "no empty state")
            #expect(page.html.text(of: empty).contains("Check the spelling"), "the empty state reads “\(page.html.text(of: empty))”")
            #expect(!page.html.text(of: empty).contains("zzyzx"), "the heading quotes the query; the empty state should not repeat it")
        }

        @Test("A search without a query shows no results and no empty state")
        func noQuery() throws {
            let page = try TestShop(inProcess: true).browser().get("/search")
            #expect(page.status == 200)
            #expect(page.productNames.isEmpty)
            #expect(page.html.first { ($0["class"] ?? "").contains("empty-state") } == nil)
        }

        @Test("Markup in a query comes back escaped, never raw")
        func queryIsEscaped() throws {
            let browser = try TestShop(inProcess: true).browser()
            try Self.store(browser)
            let page = try browser.search("<script>alert(1)</script>")
            #expect(page.status == 200, "\(page.summary)")
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the query should appear escaped")
            #expect(!page.text.contains("<script>alert"), "the query came back raw")
            #expect(page.html.first("input") { $0["name"] == "q" }?["value"] == "<script>alert(1)</script>")
            // And again from the recent searches of the next page.
            let later = try browser.get("/search")
            #expect(!later.text.contains("<script>alert"), "the recent search came back raw")
            let quote = try browser.search("\"><img src=x onerror=alert(1)>")
            #expect(!quote.text.contains("<img src=x"), "an attribute-breaking query came back raw")
        }

        @Test("A search is read without bidirectional controls, which would reorder its title and Recent")
        func bidiControlsAreLeftOut() throws {
            let browser = try TestShop(inProcess: true).browser()
            try Self.store(browser)
            let page = try browser.search("\u{202E}tent\u{2066}")
            #expect(page.status == 200 && page.productNames.contains(Products.tent), "\(page.summary)")
            #expect(page.html.first("input") { $0["name"] == "q" }?["value"] == "tent")
            let later = try browser.get("/search")
            #expect(!later.text.contains("\u{202E}") && !later.text.contains("\u{2066}"), "a bidirectional control came back")
        }

        @Test("Recent searches: the last five, newest first, without repeats, as links")
        func recentSearches() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            try Self.store(browser)
            for query in ["shoe", "tent", "bottle", "socks", "Cap", "jacket", "cap", "tent"] {
                #expect(try browser.search(query).status == 200)
            }
            let page = try browser.get("/search")
            let html = page.html
            let heading = try #require(html.first { html.text(of: $0) == "Recent" && ["h2", "h3"].contains($0.name) }, "no “Recent” heading")
            let section = try #require(html.enclosing("section", of: heading))
            let links = html.elements("a", in: section)
            #expect(links.map { html.text(of: $0) } == ["tent", "cap", "jacket", "socks", "bottle"])
            #expect(links.map { $0["href"] ?? "" } == ["/search?q=tent", "/search?q=cap", "/search?q=jacket", "/search?q=socks", "/search?q=bottle"])
            // Each link is a search that works.
            let followed = try browser.get(try #require(links.first?["href"]))
            #expect(followed.productNames.contains(Products.tent))
            // Another session has none.
            let stranger = try shop.browser().get("/search")
            #expect(stranger.html.first { stranger.html.text(of: $0) == "Recent" && $0.name.hasPrefix("h") } == nil, "another session sees these searches")
        }

        @Test("Rapid searches keep their order, newest first")
        func rapidSearchesKeepTheirOrder() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            // Names that sort in the order they are searched, so a tie in time cannot hide.
            let queries = (0..<40).map { "s\(100 + $0)" }
            try Self.store(browser)
            let cookie = try #require(browser.sessionCookie)
            // One kept-alive connection, to search as fast as the server answers.
            let client = try shop.client()
            for query in queries {
                let answer = try client.get("/search?q=\(query)", headers: [("Cookie", "\(Page.sessionCookieName)=\(cookie)")])
                #expect(answer.status == 200, "search \(query): \(answer.status)")
            }
            let html = try browser.get("/search").html
            let heading = try #require(html.first { html.text(of: $0) == "Recent" && $0.name.hasPrefix("h") })
            let section = try #require(html.enclosing("section", of: heading))
            #expect(html.elements("a", in: section).map { html.text(of: $0) } == queries.suffix(5).reversed())
        }

        @Test("Searching the same words again moves them to the front")
        func repeatedSearchMovesToTheFront() throws {
            let browser = try TestShop(inProcess: true).browser()
            try Self.store(browser)
            for query in ["shoe", "tent", "bottle", "shoe"] { _ = try browser.search(query) }
            let html = try browser.get("/search").html
            let heading = try #require(html.first { html.text(of: $0) == "Recent" && $0.name.hasPrefix("h") })
            let section = try #require(html.enclosing("section", of: heading))
            #expect(html.elements("a", in: section).map { html.text(of: $0) } == ["shoe", "bottle", "tent"])
        }
    }
}
