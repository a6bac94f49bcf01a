@testable import MicroHTTP
@testable import QuickCart
import Testing

/// The hub on its own: which count a stream hears, and when.
@Suite("Badge hub")
struct BadgeHubTests {
    @Test("A stream that subscribes with a count older than news already published starts with the newer count")
    func subscribeSendsTheNewerOfCurrentAndPublished() {
        let hub = BadgeHub()
        let first = EventStream(), second = EventStream()
        defer { first.finish(); second.finish() }
        hub.subscribe(first, liveKey: "k", client: "client-first", current: CartChange(itemCount: 3, version: 1))
        hub.publish(CartChange(itemCount: 5, version: 2), liveKey: "k")
        // Read with its session before that change committed.
        hub.subscribe(second, liveKey: "k", client: "client-second", current: CartChange(itemCount: 3, version: 1))
        let heard = second.drainedText()
        #expect(heard.contains("event: badge\ndata: 5\n"), "the second stream heard “\(heard)”")
        #expect(!heard.contains("data: 3\n"))
    }

    @Test("A stream that subscribes with the newest count starts with it")
    func subscribeSendsCurrentWhenNewest() {
        let hub = BadgeHub()
        let first = EventStream(), second = EventStream()
        defer { first.finish(); second.finish() }
        hub.subscribe(first, liveKey: "k", client: "client-first", current: CartChange(itemCount: 3, version: 1))
        hub.subscribe(second, liveKey: "k", client: "client-second", current: CartChange(itemCount: 7, version: 4))
        #expect(second.drainedText().contains("event: badge\ndata: 7\n"))
        hub.publish(CartChange(itemCount: 6, version: 3), liveKey: "k")
        #expect(!second.drainedText().contains("data: 6"), "older news reached a stream that had a newer count")
    }

    @Test("A stream of an unstored session opened after its first change moved the others still hears the next change")
    func streamOpenedAfterTheFirstChangeIsNotStranded() throws {
        let storage = try StoreBackend.sqlite.makeLocation().open()
        defer { storage.close() }
        let now = TestSessions.start
        let manager = SessionManager(
            store: storage.sessions, secret: Array(repeating: 7, count: 32), liveCatalog: storage.liveCatalog, idleLifetime: 3600, secureCookies: false
        )
        let cookie = try #require(try manager.resolve(Request(method: .get, path: "/"), at: now).cookie?.value)
        let request = Request(method: .get, path: "/events", headers: ["Cookie": "\(SessionManager.cookieName)=\(cookie)"])
        // This request read the session while it was not stored yet...
        let resolution = try manager.resolve(request, at: now)
        #expect(!resolution.session.isStored)
        let hub = BadgeHub()
        let tent = try storage.product("ultralight-tent")
        // ...then another request's first change stored it and moved the streams, before this one subscribed.
        hub.publish(try storage.carts.add(productID: tent.id, for: resolution.session, at: now), for: resolution.session)
        let response = try EventsController(hub: hub).stream(ShopRequest(
            http: request, session: resolution.session, cart: resolution.cart, cartVersion: resolution.cartVersion,
            isNewSession: resolution.isNew, nowMilliseconds: now * 1000
        ))
        guard case .eventStream(let stream) = response.body else {
            Issue.record("/events did not answer a stream")
            return
        }
        defer { stream.finish() }
        _ = stream.drainedText()
        let stored = try manager.resolve(request, at: now + 1).session
        #expect(stored.isStored)
        hub.publish(try storage.carts.add(productID: tent.id, for: stored, at: now + 1), for: stored)
        let heard = stream.drainedText()
        #expect(heard.contains("event: badge\ndata: 5\n"), "the stream heard “\(heard)”")
    }

    @Test("Every client of a shopper hears its changes; ending one client's streams ends those alone, at once")
    func clientsOfOneShopper() {
        let hub = BadgeHub()
        let phone = EventStream(), laptop = EventStream(), laptopTab = EventStream(), stranger = EventStream()
        defer { for stream in [phone, laptop, laptopTab, stranger] { stream.finish() } }
        hub.subscribe(phone, liveKey: "dana", client: "phone", current: CartChange(itemCount: 1, version: 1))
        hub.subscribe(laptop, liveKey: "dana", client: "laptop", current: CartChange(itemCount: 1, version: 1))
        hub.subscribe(laptopTab, liveKey: "dana", client: "laptop", current: CartChange(itemCount: 1, version: 1))
        hub.subscribe(stranger, liveKey: "sam", client: "sams-phone", current: CartChange(itemCount: 1, version: 1))
        for stream in [phone, laptop, laptopTab, stranger] { _ = stream.drainedText() }
        hub.publish(CartChange(itemCount: 2, version: 2), liveKey: "dana")
        for stream in [phone, laptop, laptopTab] { #expect(stream.drainedText().contains("data: 2\n")) }
        #expect(!stranger.drainedText().contains("data: 2"), "another shopper heard the change")

        hub.endStreams(ofClient: "laptop")
        #expect(laptop.isClosed && laptopTab.isClosed, "the signed-out client's streams stay open")
        #expect(!phone.isClosed && !stranger.isClosed)
        #expect(hub.totalStreamCount == 2)
        hub.publish(CartChange(itemCount: 3, version: 3), liveKey: "dana")
        #expect(phone.drainedText().contains("data: 3\n"))
    }

    @Test("A client that joins another shopper takes its streams along: they hear the join's count, then that shopper, not the old one")
    func clientMovesToAnotherShopper() {
        let hub = BadgeHub()
        let joining = EventStream(), other = EventStream()
        defer { joining.finish(); other.finish() }
        hub.subscribe(joining, liveKey: "old", client: "laptop", current: CartChange(itemCount: 2, version: 4))
        hub.subscribe(other, liveKey: "dana", client: "phone", current: CartChange(itemCount: 3, version: 7))
        _ = joining.drainedText()
        _ = other.drainedText()
        // The join's count (version 8) reached the shopper's streams here before the move did,
        // as it does on another instance: the moved stream hears it, the others not twice.
        hub.publish(CartChange(itemCount: 5, version: 8), liveKey: "dana")
        #expect(other.drainedText().contains("data: 5\n"))
        hub.moveStreams(ofClient: "laptop", to: "dana", hearing: CartChange(itemCount: 5, version: 8))
        #expect(joining.drainedText().contains("data: 5\n"), "the moved stream missed the join's count")
        #expect(!other.drainedText().contains("data: 5"), "the shopper's stream heard the join's count twice")
        hub.publish(CartChange(itemCount: 6, version: 9), liveKey: "dana")
        #expect(joining.drainedText().contains("data: 6\n"))
        hub.publish(CartChange(itemCount: 9, version: 10), liveKey: "old")
        #expect(!joining.drainedText().contains("data: 9"), "the moved stream still heard its old shopper")
        hub.endStreams(ofClient: "laptop")
        #expect(joining.isClosed)
    }
}
