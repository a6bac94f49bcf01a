import HTTPTesting
import PostgresTesting
@testable import QuickCart
import Testing

extension ShopTests {
    /// An order's move reaches its shopper's open pages as `event: order` on `/events?texts`,
    /// from the operator's own process, on SQLite and across instances on PostgreSQL.
    @Suite("Order news") struct OrderLiveTests {
        static func news(_ number: String, _ state: OrderState) -> String {
            "order: {\"label\":\"\(state.label)\",\"number\":\"\(number)\",\"state\":\"\(state.rawValue)\"}"
        }

        @Test("SQLite: `orders mark` in another process reaches the owner's ?texts stream; plain /events and other shoppers hear nothing of it")
        func sqliteMarkReachesTheOwner() throws {
            let shop = try TestShop()
            let owner = shop.browser()
            let number = try OrderPageTests.checkOut(owner)
            let stranger = shop.browser()
            _ = try stranger.get("/")
            let texts = try owner.eventStream(path: "/events?texts")
            let plain = try owner.eventStream()
            let theirs = try stranger.eventStream(path: "/events?texts")
            #expect(try texts.next().event == "badge" && texts.next().event == "badge-text")
            #expect(try plain.next().description == "badge: 0")
            #expect(try theirs.next().event == "badge" && theirs.next().event == "badge-text")

            let run = OperatorRun(["orders", "mark", number, "paid"], database: shop.directory.path + "/quickcart.sqlite")
            #expect(run.status == 0, "\(run.report)")
            let start = ContinuousClock.now
            #expect(try texts.next().description == Self.news(number, .paid))
            #expect(start.duration(to: .now) < .seconds(3), "within the watcher's second, and some")

            // The next thing the others hear is their own cart's count: no order news came first.
            #expect(try owner.post("/cart/items", form: [("product", "3")]).status == 303)
            #expect(try plain.next().description == "badge: 1", "plain /events keeps to badge events")
            #expect(try stranger.post("/cart/items", form: [("product", "3")]).status == 303)
            #expect(try theirs.next().event == "badge", "another shopper hears nothing of the order")
        }

        @Test("PostgreSQL: a mark through the database reaches the owner's open page on another instance")
        func postgresMarkReachesEveryInstance() throws {
            let url = try TestPostgresServer.shared().makeDatabase(prefix: "order_news")
            let shops = try ClusterTests.instances(2, on: url)
            let owner = shops[0].browser()
            let number = try OrderPageTests.checkOut(owner)
            let cookie = try #require(owner.sessionCookie)
            let stream = try shops[1].browser(cookie: cookie).eventStream(path: "/events?texts")
            #expect(try stream.next().event == "badge" && stream.next().event == "badge-text")
            // Paid by bank transfer: shipped once paid.
            #expect(OperatorRun(["orders", "mark", number, "paid"], database: url).status == 0)
            #expect(try stream.next().description == Self.news(number, .paid))
            let run = OperatorRun(["orders", "mark", number, "shipped", "--tracking", "https://track.example/1"], database: url)
            #expect(run.status == 0, "\(run.report)")
            let start = ContinuousClock.now
            #expect(try stream.next().description == Self.news(number, .shipped))
            #expect(start.duration(to: .now) < .seconds(1), "through NOTIFY, not a poll")
            let page = try shops[1].browser(cookie: cookie).get("/orders/\(number)")
            #expect(page.html.first { $0["data-order"] == number }?["data-order-state"] == "shipped")
        }
    }
}
