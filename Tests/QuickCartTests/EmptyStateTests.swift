import Foundation
import HTTPTesting
@testable import QuickCart
import Testing

extension ShopTests {
    /// What the cart and Search say at their limits and when there is nothing to show.
    @Suite("Limits and empty states") struct EmptyStateTests {
        @Test("An empty cart shows no count or subtotal, and keeps a disabled Checkout that says why")
        func emptyCart() throws {
            let page = try TestShop(emptyCarts: true, inProcess: true).browser().get("/cart")
            let html = page.html
            let text = html.text(of: try #require(html.first("main")))
            #expect(text.contains("Your cart is empty."))
            #expect(!text.contains("Subtotal") && !text.contains("$0.00") && !text.contains("Items 0"), "the empty cart reads “\(text)”")
            #expect(html.first { $0.has("data-subtotal") } == nil)
            let checkout = try #require(html.button(named: "Checkout"), "the cart page always has Checkout")
            #expect(checkout.has("disabled") && checkout["aria-describedby"] == "cart-empty", "\(checkout)")
        }

        @Test("A row at the limit says Max 10; a row no longer for sale says only that, beside its disabled +")
        func limitsSaidOnce() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let shoes = try shop.productID(named: Products.shoes)
            _ = try browser.post("/cart/items/\(shoes)/quantity", form: [("quantity", "10"), ("return_to", "/cart")])
            let tent = try shop.productID(named: Products.tent)
            _ = try browser.post("/cart/items", form: [("product", tent)])
            try LiveCatalogTests.importCatalog(LiveCatalogTests.catalog, into: shop)
            let page = try LiveCatalogTests.eventually(browser, "/cart") { $0.text.contains("No longer available") }
            let html = page.html
            let shoesRow = try #require(html.first("li") { $0["data-product"] == shoes })
            let tentRow = try #require(html.first("li") { $0["data-product"] == tent })
            #expect(html.text(of: shoesRow).contains("Max 10"))
            #expect(!html.text(of: tentRow).contains("Max"), "an unavailable row reads “\(html.text(of: tentRow))”")
            let plus = try #require(html.button(named: "Increase quantity of \(Products.tent)"))
            let reason = try #require(plus["aria-describedby"].flatMap { id in html.first { $0["id"] == id } }, "+ is not described")
            #expect(plus.has("disabled") && html.text(of: reason) == "No longer available")
        }

        @Test("No results quotes the query once, cut short when long, and suggests the shop's own categories")
        func noResults() throws {
            let shop = try TestShop(inProcess: true)
            let page = try shop.browser().search("zzqx")
            let main = page.html.text(of: try #require(page.html.first("main")))
            #expect(main.components(separatedBy: "zzqx").count - 1 == 1, "the query should show once: “\(main)”")
            let suggestions = page.html.elements("a") { ($0["href"] ?? "").hasPrefix("/search?q=") }.map { page.html.text(of: $0) }
            #expect(suggestions.contains("Running") && suggestions.contains("Camping"), "\(suggestions)")

            let long = String(repeating: "abcdefghij", count: 10)
            let longPage = try shop.browser().search(long)
            let heading = longPage.html.text(of: try #require(longPage.html.first("h2") { $0["id"] == "results-title" }))
            #expect(heading.count < 50 && heading.hasSuffix("…”"), "the heading reads “\(heading)”")
            #expect(longPage.html.first("input") { $0["name"] == "q" }?["value"] == long, "the field keeps the whole query")
        }

        @Test("Saving the display name says so once, and Profile greets the shopper by it")
        func displayNameFeedback() throws {
            let browser = try TestShop(inProcess: true).browser()
            let saved = try browser.click("Save", on: try browser.get("/profile"))
            #expect(saved.status == 303, "\(saved.summary)")
            let renamed = try browser.post("/profile/name", form: [("display_name", "Ada Lovelace")])
            let profile = try NoticeTests.next(browser, after: renamed, path: "/profile")
            #expect(NoticeTests.notice(on: profile) == "Display name saved: Ada Lovelace")
            let greeting = try #require(profile.html.first { $0.has("data-greeting") }, "Profile has no greeting")
            #expect(profile.html.text(of: greeting) == "Hi, Ada Lovelace")
            #expect(NoticeTests.notice(on: try browser.get("/profile")) == nil, "the notice shows once")
        }

        @Test("Moving a tab, saving an order and Reset each say what happened and the bar's new order")
        func tabOrderNotices() throws {
            let browser = try TestShop(inProcess: true).browser()
            func said(after answer: Page) throws -> String? {
                NoticeTests.notice(on: try NoticeTests.next(browser, after: answer, path: "/profile"))
            }
            let up = try browser.post("/profile/tabs", form: [("tab", "profile"), ("move", "up")])
            #expect(try said(after: up) == "Moved Profile up. Tab bar: Home, Profile, Cart, Search.")
            let first = try browser.post("/profile/tabs", form: [("tab", "home"), ("move", "up")])
            #expect(try said(after: first) == "Home is first already. Tab bar: Home, Profile, Cart, Search.")
            let dragged = try browser.post("/profile/tabs", form: [("order", "search,profile,home")])
            #expect(try said(after: dragged) == "Saved the tab order. Tab bar: Search, Profile, Cart, Home.")
            let reset = try browser.post("/profile/tabs/reset")
            #expect(try said(after: reset) == "Tab order reset. Tab bar: Home, Search, Cart, Profile.")
        }

        @Test("After an import, no results suggests only the new catalog's words")
        func suggestionsFollowTheCatalog() throws {
            let shop = try TestShop()
            try LiveCatalogTests.importCatalog("""
                slug,name,summary,category,price,featured
                sencha,Sencha,Green tea.,Tea,12.00,true
                gyokuro,Gyokuro,Shaded green tea.,Tea,24.00,false
                kyusu,Kyusu,A side-handled teapot.,Teapots,48.00,false
                """, into: shop)
            let page = try LiveCatalogTests.eventually(shop.browser(), "/search?q=zzqx") { $0.text.contains("Teapots") }
            let empty = try #require(page.html.first { ($0["class"] ?? "").contains("empty-state") })
            let words = page.html.elements("a", in: empty).map { page.html.text(of: $0) }
            #expect(words == ["Tea", "Teapots"], "\(words)")
            #expect(!page.text.contains("Running") && !page.text.contains("Camping"), "old categories still suggested")
        }
    }
}
