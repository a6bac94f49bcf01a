@testable import QuickCart
import Testing

/// One order per intent, on each backend: a second placing of an intent (a double click, two
/// tabs, a retry, two devices) gets the first one's order and changes nothing; an order is
/// placed at the prices shown or not at all.
@Suite("Order intents")
struct OrderIntentStoreTests {
    private let now = TestSessions.start

    @Test("A second placing of the same intent returns the first's order and changes nothing", arguments: StoreBackend.allCases)
    func sameIntentTwice(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        let shown = OrderPlacement.lines(of: storage.liveCatalog.current.starterCart)
        let placement = OrderPlacement(intent: .review(cartVersion: 0), shownLines: shown)
        let first = try storage.carts.placeOrder(placement, for: session, at: now)
        #expect(first.isNew && first.change == CartChange(itemCount: 0, version: 1))
        let after = try #require(try storage.sessions.stored(session))

        let again = try storage.carts.placeOrder(placement, for: TestSessions.stored(session), at: now + 5)
        #expect(again == PlacedOrder(orderID: first.orderID, change: nil))
        #expect(try storage.sessions.stored(session)?.cartVersion == after.cartVersion, "a repeated intent bumped the cart version")
        let orders = try storage.orders.orders(for: TestSessions.stored(session))
        #expect(orders.map(\.id) == [first.orderID])
        #expect(orders.first?.lines.map(\.quantity) == [1, 2] && orders.first?.total == Money(cents: 17_700))
    }

    @Test("Another device of the shopper sending the intent lands on the same order", arguments: StoreBackend.allCases)
    func anotherDevice(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        let tent = try storage.product("ultralight-tent")
        let change = try storage.carts.add(productID: tent.id, for: session, at: now)
        let phone = TestSessions.anotherClient(of: TestSessions.stored(session))
        let placement = OrderPlacement(intent: .review(cartVersion: change.version))
        let first = try storage.carts.placeOrder(placement, for: TestSessions.stored(session), at: now + 1)
        let second = try storage.carts.placeOrder(placement, for: phone, at: now + 1)
        #expect(second.orderID == first.orderID && !second.isNew)
    }

    @Test("A new intent places a new order; the same intent of another shopper is that shopper's own", arguments: StoreBackend.allCases)
    func intentsArePerShopper(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let ada = TestSessions.new(), bo = TestSessions.new()
        let placement = OrderPlacement(intent: .review(cartVersion: 0))
        let adas = try storage.carts.placeOrder(placement, for: ada, at: now)
        let bos = try storage.carts.placeOrder(placement, for: bo, at: now)
        #expect(adas.isNew && bos.isNew && adas.orderID != bos.orderID)
        #expect(throws: CartError.emptyCart) {
            try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 1)), for: TestSessions.stored(ada), at: now)
        }
        let refilled = try storage.carts.add(productID: tent.id, for: TestSessions.stored(ada), at: now + 1)
        let next = try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: refilled.version)), for: TestSessions.stored(ada), at: now + 2)
        #expect(next.isNew && next.orderID != adas.orderID)
        #expect(try storage.orders.orders(for: TestSessions.stored(ada)).map(\.id) == [next.orderID, adas.orderID])
    }

    @Test("Lines or prices other than those shown place nothing and change nothing", arguments: StoreBackend.allCases)
    func changedSinceShown(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        let shoes = try storage.product("trail-running-shoes")
        _ = try storage.sessions.setDisplayName("Ada", for: session, at: now)
        let stored = TestSessions.stored(session)
        let shown = OrderPlacement.lines(of: storage.liveCatalog.current.starterCart)
        // The shoes cost more now: an import between Review and Place order.
        let entries = storage.liveCatalog.current.catalog.allProducts.map { product in
            CatalogEntry(
                slug: product.slug, name: product.name, summary: product.summary, category: product.category,
                price: product.id == shoes.id ? Money(cents: 13_800) : product.price,
                icon: product.icon, isFeatured: product.isFeatured, isActive: product.isActive, image: nil
            )
        }
        _ = try storage.catalogStore.importCatalog(entries, origin: .own)
        let before = try #require(try storage.sessions.stored(session))
        #expect(throws: CartError.changedSinceShown) {
            try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 0), shownLines: shown), for: stored, at: now + 1)
        }
        var fewer = shown
        fewer.removeLast()
        #expect(throws: CartError.changedSinceShown) {
            try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 0), shownLines: fewer), for: stored, at: now + 1)
        }
        #expect(try storage.sessions.stored(session) == before, "a refused placing changed the cart")
        #expect(try storage.orders.orders(for: stored).isEmpty)

        // Reviewed again at the new price, it is placed at that price.
        var reviewed = shown
        reviewed[0].unitPrice = Money(cents: 13_800)
        let placed = try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 0), shownLines: reviewed), for: stored, at: now + 2)
        #expect(try storage.orders.order(id: placed.orderID, for: stored)?.total == Money(cents: 18_700))
    }

    @Test("A cart emptied since it was shown is a change, not an empty cart; with nothing shown it is empty", arguments: StoreBackend.allCases)
    func emptiedSinceShown(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        _ = try storage.sessions.setDisplayName("Ada", for: session, at: now)
        let stored = TestSessions.stored(session)
        let shown = OrderPlacement.lines(of: storage.liveCatalog.current.starterCart)
        _ = try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 0), shownLines: shown), for: stored, at: now + 1)
        // Another device's Review, of the same lines at another version, comes after the order.
        #expect(throws: CartError.changedSinceShown) {
            try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 7), shownLines: shown), for: stored, at: now + 2)
        }
        #expect(throws: CartError.emptyCart) {
            try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 8), shownLines: []), for: stored, at: now + 2)
        }
        #expect(try storage.orders.orders(for: stored).count == 1)
    }

    @Test("Eight placings of one intent at once place one order, and all get it", arguments: StoreBackend.allCases)
    func concurrentPlacings(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        _ = try storage.sessions.setDisplayName("Ada", for: session, at: now)
        let placement = OrderPlacement(intent: .review(cartVersion: 0), shownLines: OrderPlacement.lines(of: storage.liveCatalog.current.starterCart))
        let outcomes = concurrently(Array(0..<8)) { _ in
            Result { try storage.carts.placeOrder(placement, for: TestSessions.stored(session), at: now + 1) }
        }
        let placed = try outcomes.map { try $0.get() }
        #expect(Set(placed.map(\.orderID)).count == 1, "\(placed)")
        #expect(placed.filter(\.isNew).count == 1)
        #expect(try storage.orders.orders(for: TestSessions.stored(session)).count == 1)
    }

    @Test("A client's Idempotency-Key is 1 to 255 visible ASCII characters, kept apart from the web's intents")
    func idempotencyKeys() {
        #expect(OrderIntent(idempotencyKey: "8e03978e-40d5-43e8-bc93-6894a57f9324")?.key == "key:8e03978e-40d5-43e8-bc93-6894a57f9324")
        #expect(OrderIntent(idempotencyKey: String(repeating: "k", count: 255)) != nil)
        for refused in ["", String(repeating: "k", count: 256), "with space", "tab\tin", "é", "line\nbreak"] {
            #expect(OrderIntent(idempotencyKey: refused) == nil, "\(refused.debugDescription)")
        }
        #expect(OrderIntent(idempotencyKey: "review:0") != OrderIntent.review(cartVersion: 0))
    }
}
