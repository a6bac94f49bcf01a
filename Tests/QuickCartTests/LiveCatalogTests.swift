import Foundation
import HTTPTesting
@testable import QuickCart
import Testing

extension ShopTests {
    /// A running shop and `quickcart catalog import` beside it: the pages follow the catalog
    /// within seconds, and carts stay honest.
    @Suite("Live catalog") struct LiveCatalogTests {
        static let catalog = """
            slug,name,summary,category,price,featured
            trail-running-shoes,Trail Running Shoes,Grippy shoes.,Running,150.00,true
            insulated-water-bottle,Insulated Water Bottle,Cold for a day.,Hydration,24.50,false
            camp-chair,Camp Chair,Folds flat.,Camping,45.00,true
            """

        /// Imports `text` into the shop's database, as the operator would from a shell.
        static func importCatalog(_ text: String, into shop: TestShop, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let path = shop.directory.path + "/catalog-\(UUID().uuidString).csv"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let run = OperatorRun(["catalog", "import", path], database: shop.directory.path + "/quickcart.sqlite")
            #expect(run.status == 0, "\(run.report)", sourceLocation: sourceLocation)
        }

        /// Asks for `path` until `condition` holds for the page, for at most `seconds`.
        static func eventually(_ browser: Browser, _ path: String, within seconds: Double = 8, _ condition: (Page) -> Bool) throws -> Page {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                let page = try browser.get(path)
                if condition(page) || Date() > deadline { return page }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }

        @Test("A running server shows an imported catalog within a few seconds, without a restart")
        func serverPicksUpImport() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            #expect(try browser.get("/").productNames.contains("Camp Chair") == false)
            let started = Date()
            try Self.importCatalog(Self.catalog, into: shop)
            let home = try Self.eventually(browser, "/") { $0.productNames.contains("Camp Chair") }
            let seconds = Date().timeIntervalSince(started)
            #expect(home.productNames == ["Trail Running Shoes", "Camp Chair"], "Home features the new catalog (after \(seconds) s)")
            #expect(seconds < 5, "the import showed after \(seconds) s")
            #expect(home.text.contains("$150.00"), "the new price is on Home")
            let search = try browser.search("tent")
            #expect(search.productNames.isEmpty, "a product left out is not for sale: \(search.productNames)")
        }

        @Test("An import reaches open pages' streams as `event: catalog` once per version; plain /events stays badge alone")
        func importIsAnnouncedOnTheTextsStream() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            _ = try browser.get("/")
            let texts = try browser.eventStream(path: "/events?texts")
            let plain = try browser.eventStream()
            #expect(try texts.next().event == "badge" && texts.next().event == "badge-text")
            #expect(try plain.next().description == LiveBadgeTests.badge(3))
            try Self.importCatalog(Self.catalog, into: shop)
            // The check the timer runs every two seconds; a second one finds nothing new.
            shop.app.refreshCatalog()
            shop.app.refreshCatalog()
            let announced = try texts.next()
            #expect(announced.event == "catalog" && Int64(announced.data) != nil, "\(announced)")
            // A cart change after it: the next events are its count, so no second announcement came between.
            let bottle = try shop.productID(named: Products.bottle)
            #expect(try browser.post("/cart/items", form: [("product", bottle)]).status == 303)
            // (The session was not stored, so it starts from the new catalog's starter cart: empty.)
            #expect(try texts.next().description == LiveBadgeTests.badge(1), "a catalog version was announced twice")
            #expect(try plain.next().description == LiveBadgeTests.badge(1), "plain /events carried something besides the count")
        }

        @Test("An import that takes a product in a cart off sale sends that cart's new count to its plain /events streams too")
        func importRecountsPlainStreams() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let tent = try shop.productID(named: Products.tent)
            #expect(try browser.post("/cart/items", form: [("product", tent)]).status == 303)
            let plain = try browser.eventStream()
            let texts = try browser.eventStream(path: "/events?texts")
            #expect(try plain.next().description == LiveBadgeTests.badge(4))
            #expect(try texts.next().description == LiveBadgeTests.badge(4) && texts.next().event == "badge-text")
            try Self.importCatalog(Self.catalog, into: shop)
            shop.app.refreshCatalog()
            shop.app.refreshCatalog()
            #expect(try plain.next().description == LiveBadgeTests.badge(3), "the tent left the count")
            #expect(try texts.next().event == "catalog")
            #expect(try texts.next().description == LiveBadgeTests.badge(3), "the page's stream hears the count too")
            // Taken once: a cart change after it is the next news, not the recount again.
            let bottle = try shop.productID(named: Products.bottle)
            #expect(try browser.post("/cart/items", form: [("product", bottle)]).status == 303)
            #expect(try plain.next().description == LiveBadgeTests.badge(4))
        }

        @Test("The demo cart goes with the demo catalog: after an own import, new sessions start empty")
        func demoCartOnlyWithDemoCatalog() throws {
            let shop = try TestShop()
            #expect(try shop.browser().cart().badge == "3")
            try Self.importCatalog(Self.catalog, into: shop)
            let fresh = try Self.eventually(shop.browser(), "/cart") { $0.cartSnapshot.badge == "hidden" }
            #expect(fresh.cartSnapshot.badge == "hidden" && fresh.cartSnapshot.rows.isEmpty, "\(fresh.cartSnapshot)")
        }

        @Test("An open cart shows a product left out as no longer available: not increasable, not counted, left out at checkout")
        func unavailableLineInCart() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let tent = try shop.productID(named: Products.tent)
            #expect(try browser.post("/cart/items", form: [("product", tent)]).status == 303)
            try Self.importCatalog(Self.catalog, into: shop)
            let page = try Self.eventually(browser, "/cart") { $0.text.contains("No longer available") }
            let snapshot = page.cartSnapshot
            #expect(snapshot.rows.map(\.name) == [Products.shoes, Products.bottle, Products.tent], "\(snapshot)")
            #expect(snapshot.badge == "3", "the badge counts what is for sale: \(snapshot)")
            #expect(snapshot.subtotal == "$199.00", "$150.00 + 2 × $24.50, the tent left out: \(snapshot)")
            let row = try #require(page.html.first("li") { $0["data-product"] == tent })
            #expect(page.html.text(of: row).contains("No longer available"))
            #expect(page.html.button(named: "Increase quantity of \(Products.tent)")?.has("disabled") == true)
            #expect(page.text.contains("left out at checkout"))

            let refused = try browser.post("/cart/items", form: [("product", tent)])
            #expect(refused.status == 404, "\(refused.summary)")
            let increase = try browser.post("/cart/items/\(tent)/quantity", form: [("quantity", "2"), ("shown", "1")])
            #expect(increase.status == 400, "\(increase.summary)")
            #expect(try browser.post("/cart/items/\(tent)/quantity", form: [("quantity", "1"), ("shown", "2")]).status == 303, "decreasing stays possible")

            let review = try #require(try browser.postDelivery().location.map { try browser.get($0) })
            #expect(review.text.contains("Items no longer available are left out."), "\(review.summary)")
            let checkout = try browser.click("Place order", on: review)
            #expect(checkout.status == 303)
            let profile = try browser.get("/profile")
            let orders = CheckoutTests.orders(on: profile)
            #expect(orders.first?.lines == ["1 × Trail Running Shoes $150.00", "2 × Insulated Water Bottle $49.00"], "\(orders)")
        }

        @Test("Checkout of a cart holding only products no longer for sale says so, not that the cart is empty")
        func checkoutWithNothingForSale() throws {
            let shop = try TestShop(emptyCarts: true)
            let browser = shop.browser()
            let tent = try shop.productID(named: Products.tent)
            #expect(try browser.post("/cart/items", form: [("product", tent)]).status == 303)
            let review = try browser.review()
            try Self.importCatalog(Self.catalog, into: shop)
            _ = try Self.eventually(browser, "/cart") { $0.text.contains("No longer available") }
            #expect(try browser.get("/checkout").text.contains("Your cart has nothing to check out."))
            let refused = try browser.click("Place order", on: review)
            #expect(refused.status == 400, "\(refused.summary)")
            #expect(refused.text.contains("Nothing in your cart is for sale any more; remove those items to continue."), "\(refused.summary)")
            #expect(!refused.text.contains("Your cart is empty"))
        }
    }
}
