import Foundation
import HTTPTesting
import Testing

extension ShopTests {
    /// `GET /events`: the session's live badge.
    @Suite("Live badge") struct LiveBadgeTests {
        static func badge(_ count: Int) -> String { "badge: \(count)" }

        /// What the next read of `stream` brings: an event, or why there was none.
        static func outcome(of stream: TestEventStreamClient) -> String {
            do {
                return try stream.next().description
            } catch {
                return "\(error)"
            }
        }

        /// Reads the next event and how long it took to arrive.
        static func timedNext(_ stream: TestEventStreamClient) throws -> (event: String, elapsed: Duration) {
            let start = ContinuousClock.now
            let event = try stream.next()
            return (event.description, start.duration(to: .now))
        }

        @Test("The stream is text/event-stream, starts with the current count, and sets retry")
        func streamStartsWithTheCount() throws {
            let browser = try TestShop().browser()
            _ = try browser.get("/")
            let stream = try browser.eventStream()
            #expect(stream.status == 200)
            #expect(stream.contentType == "text/event-stream")
            let first = try stream.next()
            #expect(first.event == "badge" && first.data == "3", "the first event should be badge 3, saw \(first)")
            let retry = try #require(stream.retry, "no retry: line before the first event")
            #expect(retry > 0)
        }

        @Test("A stream opened after changes starts with the stored count; an empty cart with 0")
        func streamStartsWithTheStoredCount() throws {
            let browser = try TestShop().browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "8")]).status == 303)
            #expect(Self.outcome(of: try browser.eventStream()) == Self.badge(10))

            let empty = try TestShop(emptyCarts: true)
            let shopper = empty.browser()
            _ = try shopper.get("/")
            #expect(Self.outcome(of: try shopper.eventStream()) == Self.badge(0))
        }

        @Test("Each change of the count arrives within 100 ms of the 303")
        func changesArriveWithin100ms() throws {
            let browser = try TestShop().browser()
            _ = try browser.get("/")
            let stream = try browser.eventStream()
            #expect(Self.outcome(of: stream) == Self.badge(3))

            let steps: [(page: String, button: String, count: Int)] = [
                ("/cart", "Increase quantity of \(Products.shoes)", 4),
                ("/cart", "Remove \(Products.bottle)", 2),
                ("/", "Add \(Products.tent) to cart", 3),
                ("/cart", "Decrease quantity of \(Products.shoes)", 2),
                ("/checkout/review", "Place order", 0),
            ]
            for step in steps {
                // Place order follows the Delivery step, which changes no count.
                if step.button == "Place order" { #expect(try browser.postDelivery().status == 303) }
                let answer = try browser.click(step.button, on: try browser.get(step.page))
                try #require(answer.status == 303, "\(step.button): \(answer.summary)")
                let (event, elapsed) = try Self.timedNext(stream)
                #expect(event == Self.badge(step.count), "after “\(step.button)”")
                #expect(elapsed < .milliseconds(100), "after “\(step.button)” the event took \(elapsed)")
            }
        }

        @Test("Every tab and device of the session hears a change made in any of them")
        func everyTabOfTheSessionHears() throws {
            let shop = try TestShop()
            let laptop = shop.browser()
            _ = try laptop.get("/")
            let phone = shop.browser(cookie: laptop.sessionCookie)
            let streams = try [laptop.eventStream(), laptop.eventStream(), phone.eventStream()]
            for stream in streams { #expect(Self.outcome(of: stream) == Self.badge(3)) }
            #expect(try phone.click("Increase quantity of \(Products.bottle)", on: try phone.get("/cart")).status == 303)
            for stream in streams {
                let (event, elapsed) = try Self.timedNext(stream)
                #expect(event == Self.badge(4))
                #expect(elapsed < .milliseconds(100), "the event took \(elapsed)")
            }
        }

        @Test("A change reaches no other session's stream")
        func noLeakToOtherSessions() throws {
            let shop = try TestShop()
            let alice = shop.browser(), bob = shop.browser()
            _ = try alice.get("/")
            _ = try bob.get("/")
            let aliceStream = try alice.eventStream()
            let bobStream = try bob.eventStream(timeout: 0.3)
            #expect(Self.outcome(of: aliceStream) == Self.badge(3))
            #expect(Self.outcome(of: bobStream) == Self.badge(3))

            #expect(try alice.click("Increase quantity of \(Products.shoes)", on: try alice.get("/cart")).status == 303)
            #expect(Self.outcome(of: aliceStream) == Self.badge(4))
            let start = ContinuousClock.now
            #expect(Self.outcome(of: bobStream) == "timed out", "B's stream heard of A's change")
            #expect(start.duration(to: .now) < .seconds(2))
        }

        @Test("A rejected post sends no event")
        func rejectedPostsSendNothing() throws {
            let browser = try TestShop().browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            let stream = try browser.eventStream(timeout: 0.3)
            #expect(Self.outcome(of: stream) == Self.badge(3))
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "abc")]).status == 400)
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "5")], csrf: .none).status == 403)
            #expect(try browser.post("/cart/items", form: [("product", "9999")]).status == 404)
            #expect(Self.outcome(of: stream) == "timed out", "a rejected post sent an event")
        }

        @Test("16 streams of one session all hear a change while 200 streams of other sessions stay silent")
        func manyStreams() throws {
            // All 216 streams come from 127.0.0.1, which the per-address cap would stop at 128.
            let shop = try TestShop { $0.eventStreamsPerAddress = 0 }
            let alice = shop.browser()
            _ = try alice.get("/")
            let aliceStreams = try (0..<16).map { _ in try alice.eventStream() }
            for stream in aliceStreams { #expect(Self.outcome(of: stream) == Self.badge(3)) }

            var others: [TestEventStreamClient] = []
            for _ in 0..<200 {
                let other = shop.browser()
                _ = try other.get("/")
                let stream = try other.eventStream(timeout: 0.3)
                try #require(Self.outcome(of: stream) == Self.badge(3))
                others.append(stream)
            }
            #expect(shop.app.openEventStreamCount == 216)

            #expect(try alice.click("Increase quantity of \(Products.shoes)", on: try alice.get("/cart")).status == 303)
            let start = ContinuousClock.now
            let heard = aliceStreams.map { Self.outcome(of: $0) }
            let elapsed = start.duration(to: .now)
            #expect(heard == Array(repeating: Self.badge(4), count: 16))
            #expect(elapsed < .milliseconds(100), "16 streams took \(elapsed) to hear the change")

            let silenceStarted = ContinuousClock.now
            let outcomes = concurrently(others) { Self.outcome(of: $0) }
            let leaks = outcomes.enumerated().filter { $0.element != "timed out" }
            #expect(leaks.isEmpty, "\(leaks.count) of 200 other sessions' streams heard something: \(leaks.prefix(5))")
            #expect(silenceStarted.duration(to: .now) < .seconds(5))
        }

        @Test("Clients that vanish are reaped by the next heartbeat; the rest hear keep-alives and events")
        func heartbeatReapsVanishedClients() throws {
            let shop = try TestShop(heartbeatInterval: 0.1)
            let browsers = (0..<3).map { _ in shop.browser() }
            var streams: [TestEventStreamClient] = []
            for browser in browsers {
                _ = try browser.get("/")
                for _ in 0..<2 {
                    let stream = try browser.eventStream()
                    #expect(Self.outcome(of: stream) == Self.badge(3))
                    streams.append(stream)
                }
            }
            #expect(shop.app.openEventStreamCount == 6)
            #expect(shop.app.hub.totalStreamCount == 6)

            // One stream of each session vanishes without a word.
            let (gone, staying) = (stride(from: 0, to: 6, by: 2).map { streams[$0] }, stride(from: 1, to: 6, by: 2).map { streams[$0] })
            for stream in gone { stream.connection.disconnect() }
            let deadline = ContinuousClock.now + .seconds(5)
            while shop.app.openEventStreamCount > 3 || shop.app.hub.totalStreamCount > 3, ContinuousClock.now < deadline {
                usleep(20_000)
            }
            #expect(shop.app.openEventStreamCount == 3, "open streams after 3 clients vanished")
            #expect(shop.app.hub.totalStreamCount == 3, "the hub still holds streams of vanished clients")

            #expect(try browsers[0].click("Increase quantity of \(Products.shoes)", on: try browsers[0].get("/cart")).status == 303)
            #expect(Self.outcome(of: staying[0]) == Self.badge(4))
            #expect(!staying[0].comments.isEmpty, "no keep-alive comment arrived on a live stream")
        }

        @Test("With ?texts each badge event is followed by badge-text with the server's texts: 0 items, 1 item, 3 items, and 100 in full")
        func badgeTextFollowsEachCount() throws {
            let browser = try TestShop(emptyCarts: true).browser()
            _ = try browser.get("/")
            let stream = try browser.eventStream(path: "/events?texts")
            func nextPair() -> [String] { [Self.outcome(of: stream), Self.outcome(of: stream)] }
            func pair(_ count: Int, _ badge: String, _ items: String) -> [String] {
                [Self.badge(count), #"badge-text: {"badge":"\#(badge)","count":\#(count),"items":"\#(items)"}"#]
            }
            #expect(nextPair() == pair(0, "0", "0 items"))
            #expect(try browser.post("/cart/items", form: [("product", "1")]).status == 303)
            #expect(nextPair() == pair(1, "1", "1 item"))
            for _ in 0..<2 { #expect(try browser.post("/cart/items", form: [("product", "2")]).status == 303) }
            #expect(nextPair() == pair(2, "2", "2 items"))
            #expect(nextPair() == pair(3, "3", "3 items"))

            // Lines hold at most 10 each (Cart.quantityRange), so 100 takes ten full lines.
            for product in 1...10 {
                #expect(try browser.post("/cart/items", form: [("product", "\(product)")]).status == 303)
                #expect(try browser.post("/cart/items/\(product)/quantity", form: [("quantity", "10")]).status == 303)
            }
            #expect(try browser.cart().badge == "100")
            let reopened = try browser.eventStream(path: "/events?texts")
            #expect([Self.outcome(of: reopened), Self.outcome(of: reopened)] == pair(100, "100", "100 items"))
        }

        @Test("Without ?texts the stream is the counts alone: every event is badge with the count")
        func plainStreamCarriesCountsAlone() throws {
            let browser = try TestShop().browser()
            let page = try browser.get("/cart")
            let stream = try browser.eventStream()
            #expect(Self.outcome(of: stream) == Self.badge(3))
            #expect(try browser.click("Increase quantity of \(Products.shoes)", on: page).status == 303)
            #expect(Self.outcome(of: stream) == Self.badge(4), "the next event after a change is its count")
        }

        @Test("Stopping the app ends open streams")
        func stopEndsStreams() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            _ = try browser.get("/")
            let streams = try (0..<3).map { _ in try browser.eventStream() }
            for stream in streams { #expect(Self.outcome(of: stream) == Self.badge(3)) }
            let start = ContinuousClock.now
            shop.stop()
            #expect(start.duration(to: .now) < .seconds(2), "stop took \(start.duration(to: .now))")
            for stream in streams {
                #expect(Self.outcome(of: stream) != "timed out", "a stream stayed open after stop")
            }
            #expect(shop.app.openEventStreamCount == 0)
        }
    }
}
