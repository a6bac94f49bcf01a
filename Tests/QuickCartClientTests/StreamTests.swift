import QuickCartClient
import Testing

/// The badge stream's reconnection, against a shop that restarts.
@Suite("The client's event stream", .timeLimit(.minutes(3)))
struct StreamTests {
    @Test("The badge sequence carries on across a restart of the shop, after the server's retry: rather than the client's own first delay", arguments: Backend.allCases)
    func reconnectsAcrossRestart(backend: Backend) async throws {
        let shop = try APIShop(backend)
        // The policy's own first delay is far longer than the test waits: only honouring the
        // stream's `retry:` (2 s) brings the stream back in time.
        let app = try await QuickCartClient.registered(at: shop, reconnection: ReconnectPolicy(initialDelay: .seconds(40), maximumDelay: .seconds(60)))
        let shoes = try await app.product(named: DemoProducts.shoes)
        let one = try await app.addLine(productID: shoes.id)
        let counts = Recording(app.badgeCounts())
        #expect(await counts.until { $0 == [one.count] } == [one.count], "\(backend)")

        try shop.restart()
        let two = try await app.addLine(productID: shoes.id)
        #expect(await counts.until(20) { $0.last == two.count } == [one.count, two.count], "\(backend): the sequence did not carry on after the restart")
        let three = try await app.adjustQuantity(productID: shoes.id, by: 1)
        #expect(await counts.until { $0.last == three.count }.last == three.count, "\(backend)")
        #expect(await counts.heard.ending == nil, "\(backend): the sequence ended")
    }

    @Test("A stream refused with 503 because the address holds too many is tried again after its Retry-After, not the backoff's first delay")
    func waitsOutRetryAfter() async throws {
        let shop = try APIShop(.sqlite, streamsPerAddress: 1)
        let app = try await QuickCartClient.registered(at: shop, reconnection: ReconnectPolicy(initialDelay: .milliseconds(200)))
        let cart = try await app.addLine(productID: try await app.product(named: DemoProducts.tent).id)
        let web = WebShopper(port: shop.port)
        _ = try web.badge()
        let held = try web.eventStream()
        #expect(try held.next().event == "badge")
        let counts = Recording(app.badgeCounts())
        // The place is freed only once the app's stream was refused: with every suite running
        // at once under AddressSanitizer, its first try came after a fixed second's wait, found
        // the place free and opened at once.
        #expect(await eventually { shop.refusedEventStreamCount >= 1 }, "the app's stream was never refused")
        #expect(await counts.until(1) { !$0.isEmpty }.isEmpty, "a second stream from the address was let in")
        held.connection.disconnect()
        let freed = ContinuousClock.now
        #expect(await counts.until(20) { !$0.isEmpty } == [cart.count], "the stream never opened once the place was free")
        // The refusal said 10 seconds; the backoff alone would have tried within a second of the place being free.
        #expect(freed.duration(to: .now) > .seconds(5), "the stream was retried before its Retry-After")
        #expect(await counts.heard.ending == nil)
    }

    @Test("The events sequence gives each badge with its cart version: the open's count, then checkout's empty cart")
    func badgeEvents() async throws {
        let shop = try APIShop(.sqlite)
        let app = try await QuickCartClient.registered(at: shop)
        let cart = try await app.addLine(productID: try await app.product(named: DemoProducts.tent).id)
        let events = Recording(app.events())
        let opened = await events.until { !$0.isEmpty }
        #expect(opened == [.badge(count: cart.count, version: cart.version)], "\(opened)")
        _ = try await app.checkout(delivery: .pickUp)
        let emptied = try await app.cart()
        let heard = await events.until { $0.count == 2 }
        #expect(heard.last == .badge(count: 0, version: emptied.version), "the stream did not hear checkout empty the cart: \(heard)")
    }

    @Test("An order's move, marked by the operator's command, arrives as an order event with its new state")
    func orderEvents() async throws {
        let shop = try APIShop(.sqlite)
        let app = try await QuickCartClient.registered(at: shop)
        _ = try await app.addLine(productID: try await app.product(named: DemoProducts.tent).id)
        let order = try await app.checkout(delivery: .pickUp).order
        let events = Recording(app.events())
        #expect(await events.until { !$0.isEmpty }.count == 1)
        #expect(shop.runCommand(["orders", "mark", order.id, "paid"]) == 0)
        let heard = await events.until { $0.count >= 2 }
        guard case .order(order.id, .paid, let label)? = heard.last else {
            Issue.record("no order event: \(heard)")
            return
        }
        let read = try await app.order(id: order.id)
        #expect(!label.isEmpty && read.state == .paid, "\(label) \(read.state)")
    }
}
