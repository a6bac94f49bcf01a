import Foundation
import HTTPTesting
import PostgresTesting
import QuickCart
import Synchronization
import Testing

extension ShopTests {
    /// Several real QuickCart apps on one PostgreSQL database, each on its own port, as
    /// instances behind a load balancer: any request may reach any of them.
    @Suite("Instances sharing PostgreSQL")
    struct ClusterTests {
        /// `count` shops on the database `url`.
        static func instances(_ count: Int, on url: String) throws -> [TestShop] {
            try (0..<count).map { _ in try TestShop { $0.databasePath = url } }
        }

        @Test("A session's cookie works on every instance, and a change through one reaches the streams on the others within 100 ms")
        func badgeAcrossInstances() throws {
            let shops = try Self.instances(3, on: try TestPostgresServer.shared().makeDatabase(prefix: "cluster_badge"))
            let (first, cookie) = try shops[0].visitor()
            let streams = try shops[1...].map { try $0.browser(cookie: cookie).eventStream() }
            for stream in streams {
                #expect(try stream.next().description == "badge: 3")
            }
            let id = try #require(try first.cart().row(Products.shoes)?.id)
            for quantity in [4, 7] {
                #expect(try first.post("/cart/items/\(id)/quantity", form: [("quantity", String(quantity))]).status == 303)
                let arrivals = concurrently(streams) { stream in
                    let start = ContinuousClock.now
                    let event = Result { try stream.next().description }
                    return (event, start.duration(to: .now))
                }
                for (event, elapsed) in arrivals {
                    #expect((try? event.get()) == "badge: \(quantity + 2)")
                    #expect(elapsed < .milliseconds(100), "the event took \(elapsed)")
                }
            }
            let elsewhere = try shops[2].browser(cookie: cookie).cart()
            #expect(elsewhere.row(Products.shoes)?.quantity == 7)
        }

        @Test("An import reaches the open pages' streams on every instance as one `event: catalog` each")
        func catalogAnnouncedOnEveryInstance() throws {
            let url = try TestPostgresServer.shared().makeDatabase(prefix: "cluster_catalog")
            let shops = try Self.instances(2, on: url)
            let (first, cookie) = try shops[0].visitor()
            let streams = try shops.map { try $0.browser(cookie: cookie).eventStream(path: "/events?texts") }
            for stream in streams {
                #expect(try stream.next().event == "badge" && stream.next().event == "badge-text")
            }
            let folder = try TemporaryDirectory()
            let path = folder.path + "/catalog.csv"
            try Data(LiveCatalogTests.catalog.utf8).write(to: URL(fileURLWithPath: path))
            let run = OperatorRun(["catalog", "import", path], database: url)
            #expect(run.status == 0, "\(run.report)")
            for shop in shops {
                shop.app.refreshCatalog()
                shop.app.refreshCatalog()
            }
            for stream in streams {
                let event = try stream.next()
                #expect(event.event == "catalog" && Int64(event.data) != nil, "\(event)")
            }
            // The next event on each is a cart change's count: no instance announced the version twice.
            let bottle = try shops[0].productID(named: Products.bottle)
            #expect(try first.post("/cart/items", form: [("product", bottle)]).status == 303)
            for stream in streams {
                #expect(try stream.next().event == "badge")
            }
        }

        @Test("Increase pressed at once through every instance, on pages that showed the same quantity, adds exactly one each")
        func concurrentIncreasesAllCount() throws {
            let shops = try Self.instances(3, on: try TestPostgresServer.shared().makeDatabase(prefix: "cluster_increase"))
            let cookie = try #require(try shops[0].browser().get("/").sessionCookie?.value)
            let browsers = (0..<6).map { shops[$0 % 3].browser(cookie: cookie) }
            let pages = try browsers.map { try $0.get("/cart") }
            let statuses = concurrently(Array(zip(browsers, pages))) { browser, page in
                (try? browser.click("Increase quantity of \(Products.shoes)", on: page).status) ?? 0
            }
            #expect(statuses == Array(repeating: 303, count: 6))
            #expect(try browsers[1].cart().row(Products.shoes)?.quantity == 7)
        }

        @Test("A session that has changed nothing sees its recent searches through every instance, and none is stored")
        func recentSearchesOfASessionNotStored() throws {
            let server = try TestPostgresServer()
            defer { server.remove() }
            let shops = try Self.instances(2, on: try server.makeDatabase(prefix: "cluster_searches"))
            let browser = shops[0].browser()
            _ = try browser.get("/")
            for query in ["tent", "bottle"] { #expect(try browser.search(query).status == 200) }
            let elsewhere = browser.moved(to: shops[1])
            func recent(_ page: Page) -> [String] {
                let html = page.html
                guard let list = html.first("ul", where: { $0["class"] == "recent__list" }) else { return [] }
                return html.elements("a", in: list).map { html.text(of: $0) }
            }
            let search = try elsewhere.get("/search")
            #expect(recent(search) == ["bottle", "tent"], "\(search.summary)")
            let tab = try elsewhere.get("/").html.first("a") { $0["href"]?.hasPrefix("/search") == true }?["href"]
            #expect(tab == "/search?q=bottle", "the Search tab returns to the newest search on any instance")
            #expect(try elsewhere.search("stove").status == 200)
            let back = try elsewhere.moved(to: shops[0]).get("/search")
            #expect(recent(back) == ["stove", "bottle", "tent"])
            #expect(browser.sessionCookie == elsewhere.sessionCookie, "searching stored the session")
        }

        @Test("PostgreSQL down: /healthz, pages (a new visitor's too), posts and new app clients answer 503 with Retry-After; back: every instance recovers by itself")
        func outage() throws {
            let server = try TestPostgresServer()
            defer { server.remove() }
            let shops = try Self.instances(2, on: try server.makeDatabase(prefix: "cluster_outage"))
            let browser = shops[0].browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "5")]).status == 303)
            let cookie = try #require(browser.sessionCookie)
            let stream = try shops[1].browser(cookie: cookie).eventStream(timeout: 15)
            #expect(try stream.next().description == "badge: 7")
            // The first change rotated the cookie: the new one's page gives the token for the post below.
            _ = try browser.token()

            try server.stop()
            for shop in shops {
                // A new visitor's page reads nothing stored: the lost listener tells the instance
                // (at once, or a moment after the stop), or a request that failed.
                let deadline = Date().addingTimeInterval(3)
                var visitor = try shop.browser().get("/")
                while visitor.status != 503, Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.05)
                    visitor = try shop.browser().get("/")
                }
                #expect(visitor.status == 503 && visitor.header("Retry-After") != nil, "a new visitor's page: \(visitor.summary)")
                let app = try TestApp(port: shop.port).send("POST", "/api/v1/clients", json: [:])
                #expect(app.status == 503 && app.header("Retry-After") != nil, "a new app client: \(app)")
                let other = shop.browser(cookie: cookie)
                #expect(try other.get("/healthz").status == 503)
                let page = try other.get("/cart")
                #expect(page.status == 503 && page.header("Retry-After") != nil, "\(page.summary)")
            }
            let refused = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "9")])
            #expect(refused.status == 503 && refused.header("Retry-After") != nil, "\(refused.summary)")
            try server.start()

            // The other instance's listener reconnects and sends its open stream the count.
            #expect(try stream.next().description == "badge: 7")
            for shop in shops {
                #expect(try shop.browser().get("/healthz").status == 200)
                #expect(try shop.browser().get("/").status == 200, "a new visitor after the outage")
                #expect(try shop.browser(cookie: cookie).cart().row(Products.shoes)?.quantity == 5, "the refused post changed the cart")
            }
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "6")]).status == 303)
            #expect(try stream.next().description == "badge: 8")
        }
    }
}
