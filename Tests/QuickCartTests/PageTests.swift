import HTTPTesting
import Testing

/// Tests of the whole shop: the real app on port 0, a fresh database each, real sockets.
@Suite struct ShopTests {}

extension ShopTests {
    /// The four pages and the tab bar every page carries.
    @Suite("Pages and tab bar") struct PageTests {
        static let tabs = [("Home", "/"), ("Search", "/search"), ("Cart", "/cart"), ("Profile", "/profile")]

        @Test("Each page is HTML with one tab bar of four links, the current one marked", arguments: tabs)
        func pageCarriesTheTabBar(current: String, path: String) throws {
            let page = try TestShop(inProcess: true).browser().get(path)
            try #require(page.status == 200, "GET \(path): expected 200, saw \(page.summary)")
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")

            #expect(page.tabBars.count == 1, "expected exactly one <nav aria-label=\"Tabs\"> on \(path), saw \(page.tabBars.count)")
            let links = page.tabLinks
            let names = links.map { $0["aria-label"] == nil ? page.html.text(of: $0, skippingHidden: true) : $0["aria-label"]! }
            #expect(names == ["Home", "Search", "Cart, 3 items", "Profile"], "tab names on \(path)")
            #expect(links.map { $0["href"] ?? "" } == Self.tabs.map(\.1), "tab hrefs on \(path)")
            let marked = links.filter { $0["aria-current"] != nil }
            #expect(marked.map { $0["href"] ?? "" } == [path], "only the \(current) tab should be current on \(path): \(marked)")
            #expect(marked.allSatisfy { $0["aria-current"] == "page" })
        }

        @Test("The Cart link is the prominent one, holds the badge and reads “Cart, 3 items”", arguments: tabs.map(\.1))
        func cartLinkIsProminentWithTheBadge(path: String) throws {
            let page = try TestShop(inProcess: true).browser().get(path)
            let html = page.html
            let prominent = html.elements { $0["data-role"] == "prominent" }
            #expect(prominent.count == 1, "expected one data-role=prominent element on \(path), saw \(prominent)")
            let cart = try #require(page.tabLinks.first { $0["href"] == "/cart" }, "no Cart link on \(path)")
            #expect(cart["data-role"] == "prominent", "the Cart link should carry data-role=prominent: \(cart)")
            let badge = try #require(page.badge, "no data-badge element on \(path)")
            #expect(html.contains(cart, badge.element), "the badge should sit inside the Cart link on \(path)")
            #expect(badge.text == "3")
            #expect(!badge.isHidden, "a count of 3 must not be hidden")
            #expect(html.accessibleName(of: cart) == "Cart, 3 items")
        }

        @Test("Home shows featured products, each with an “Add NAME to cart” button")
        func homeShowsFeaturedProductsWithAddButtons() throws {
            let page = try TestShop(inProcess: true).browser().get("/")
            let html = page.html
            let names = page.productNames
            #expect(names.contains(Products.shoes) && names.contains(Products.bottle), "featured products: \(names)")
            let headings = html.elements { $0["class"] == "product__name" }
            #expect(!headings.isEmpty, "no product names on Home")
            for heading in headings {
                let name = html.text(of: heading)
                let card = try #require(html.enclosing("li", of: heading))
                let buttons = html.elements("button", in: card).map { html.accessibleName(of: $0) }
                #expect(buttons == ["Add \(name) to cart"], "buttons of the \(name) card")
                #expect(html.button(named: "Add \(name) to cart") != nil)
            }
        }

        @Test("Search has a field labelled “Search products”")
        func searchHasALabelledField() throws {
            let html = try TestShop(inProcess: true).browser().get("/search").html
            let label = try #require(html.first("label") { html.text(of: $0) == "Search products" }, "no label “Search products”")
            let field = try #require(html.first("input") { $0["id"] != nil && $0["id"] == label["for"] }, "the label points at no input")
            #expect(field["name"] == "q")
        }

        @Test("Pages send a Content-Security-Policy without 'unsafe-inline', and nosniff", arguments: tabs.map(\.1) + ["/nowhere"])
        func securityHeaders(path: String) throws {
            let page = try TestShop(inProcess: true).browser().get(path)
            let policy = try #require(page.header("Content-Security-Policy"), "no Content-Security-Policy on \(path)")
            #expect(!policy.contains("unsafe-inline"), "CSP on \(path): \(policy)")
            #expect(!policy.contains("unsafe-eval"), "CSP on \(path): \(policy)")
            #expect(policy.contains("script-src 'self'"), "CSP on \(path): \(policy)")
            #expect(page.header("X-Content-Type-Options") == "nosniff")
        }

        @Test("Pages carry no inline script or style, and no duplicate ids", arguments: tabs.map(\.1))
        func pagesAreValidUnderTheirPolicy(path: String) throws {
            let html = try TestShop(inProcess: true).browser().get(path).html
            let inlineScripts = html.elements("script") { !$0.has("src") }
            #expect(inlineScripts.isEmpty, "inline scripts on \(path) would be blocked by the CSP: \(inlineScripts)")
            #expect(html.elements("style").isEmpty, "inline <style> on \(path) would be blocked by the CSP")
            #expect(html.elements(where: { $0.has("style") }).isEmpty, "style attributes on \(path) would be blocked by the CSP")
            let handlers = html.elements { $0.attributes.keys.contains { $0.hasPrefix("on") } }
            #expect(handlers.isEmpty, "inline event handlers on \(path): \(handlers)")
            var seen: [String: Int] = [:]
            for tag in html.elements(where: { $0.has("id") }) { seen[tag["id"]!, default: 0] += 1 }
            let duplicates = seen.filter { $0.value > 1 }.keys.sorted()
            #expect(duplicates.isEmpty, "duplicate ids on \(path): \(duplicates)")
            let references = html.elements(where: { $0.has("aria-labelledby") }).compactMap { $0["aria-labelledby"] }
            let dangling = references.filter { seen[$0] == nil }
            #expect(dangling.isEmpty, "aria-labelledby on \(path) names ids that do not exist: \(dangling)")
        }
    }
}
