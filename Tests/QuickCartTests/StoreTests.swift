import Dispatch
import Foundation
@testable import MicroHTTP
@testable import QuickCart
import Synchronization
import Testing

/// Every storage protocol method, written once and run against each backend in
/// ``StoreBackend``: the rules the shop relies on, whichever database keeps its data.
@Suite("Stores")
struct StoreTests {
    private let now = TestSessions.start

    // MARK: - Catalog, secret, health

    @Test("The catalog is loaded on open, in catalog order, with exact prices", arguments: StoreBackend.allCases)
    func catalogIsLoaded(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let catalog = storage.liveCatalog.current.catalog
        #expect(catalog.products.count == CatalogSeed.products.count)
        #expect(catalog.products.map(\.slug) == CatalogSeed.products.map(\.slug))
        #expect(catalog.products.map(\.price.cents) == CatalogSeed.products.map(\.priceCents))
        let shoes = try #require(catalog.product(slug: "trail-running-shoes"))
        #expect(shoes.name == "Trail Running Shoes" && shoes.price == Money(cents: 12_800) && shoes.isFeatured)
        #expect(catalog.product(id: shoes.id) == shoes)
    }

    @Test("The demo catalog is seeded only while no catalog was ever imported, never over the operator's", arguments: StoreBackend.allCases)
    func demoSeedNeverOverAnImport(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let demo = storage.liveCatalog.current
        #expect(demo.origin == .demo)
        let entries = demo.catalog.products.map { product in
            CatalogEntry(
                slug: product.slug, name: product.name, summary: product.summary, category: product.category, price: product.price,
                icon: product.icon, isFeatured: product.isFeatured, isActive: true, image: nil
            )
        }
        // A second instance that read "never imported" before the first one's seed committed.
        let again = try storage.catalogStore.importCatalogIfNeverImported(entries, origin: .demo)
        #expect(again.version == demo.version, "the demo was seeded twice")
        // And one queued behind the operator's import: the operator's catalog stays.
        let own = try storage.catalogStore.importCatalog(Array(entries.prefix(1)), origin: .own)
        let late = try storage.catalogStore.importCatalogIfNeverImported(entries, origin: .demo)
        #expect(late.version == own.version && late.origin == .own)
        #expect(late.products.filter(\.isActive).map(\.slug) == [entries[0].slug])
    }

    @Test("The starter cart is the demo cart, or empty when asked", arguments: StoreBackend.allCases)
    func starterCart(backend: StoreBackend) throws {
        let location = try backend.makeLocation()
        let demo = try location.open()
        #expect(demo.liveCatalog.current.starterCart.items.map { "\($0.quantity) × \($0.product.name)" } == ["1 × Trail Running Shoes", "2 × Insulated Water Bottle"])
        demo.close()
        let empty = try location.open(emptyCarts: true)
        defer { empty.close() }
        #expect(empty.liveCatalog.current.starterCart.isEmpty)
    }

    @Test("The session secret is long, stable across reopening, and different for another shop", arguments: StoreBackend.allCases)
    func secretIsStable(backend: StoreBackend) throws {
        let location = try backend.makeLocation()
        let first = try location.open()
        let secret = try first.sessionSecret()
        #expect(secret.count >= 32)
        #expect(try first.sessionSecret() == secret)
        first.close()
        let again = try location.open()
        #expect(try again.sessionSecret() == secret, "the secret changed when storage was reopened")
        again.close()
        let other = try backend.makeLocation().open()
        defer { other.close() }
        #expect(try other.sessionSecret() != secret, "two shops made the same secret")
    }

    @Test("ping answers while storage is reachable", arguments: StoreBackend.allCases)
    func ping(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        try storage.ping()
    }

    // MARK: - Sessions

    @Test("A session is not stored until its first change; then it is, with the starter cart", arguments: StoreBackend.allCases)
    func lazySessionStore(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new(createdAt: now - 60)
        #expect(try storage.sessions.stored(session) == nil)
        #expect(try storage.searches.recentSearches(for: session) == [])
        #expect(try storage.orders.orders(for: session) == [])

        try storage.sessions.setDisplayName("Ada", for: session, at: now)
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored == StoredSession(
            shopperID: session.shopperID, shopperLiveKey: session.shopperLiveKey, createdAt: now - 60, lastSeen: now, displayName: "Ada",
            preferences: .standard, cart: storage.liveCatalog.current.starterCart, cartVersion: 0
        ))
    }

    @Test("A refused first change stores no session: the two share one transaction", arguments: StoreBackend.allCases)
    func refusedFirstChangeStoresNothing(backend: StoreBackend) throws {
        let location = try backend.makeLocation()
        let storage = try location.open()
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        #expect(throws: CartError.notInCart) { try storage.carts.setQuantity(4, of: tent.id, for: session, at: now) }
        #expect(throws: CartError.notInCart) { try storage.carts.adjustQuantity(by: 1, of: tent.id, for: session, at: now) }
        #expect(try storage.sessions.stored(session) == nil, "a refused change stored its session")
        storage.close()

        let empty = try location.open(emptyCarts: true)
        defer { empty.close() }
        #expect(throws: CartError.emptyCart) { try empty.carts.checkout(for: session, at: now) }
        #expect(try empty.sessions.stored(session) == nil, "a refused checkout stored its session")
    }

    @Test("Checkout of a cart whose products are all no longer for sale says so, and changes nothing", arguments: StoreBackend.allCases)
    func checkoutWithNothingForSale(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let products = storage.liveCatalog.current.catalog.products
        let tent = try #require(products.first { $0.slug == "ultralight-tent" })
        let session = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: session, at: now)
        // An import that leaves the tent out takes it off sale.
        let kept = products.filter { $0.id != tent.id }.map { product in
            CatalogEntry(
                slug: product.slug, name: product.name, summary: product.summary, category: product.category, price: product.price,
                icon: product.icon, isFeatured: product.isFeatured, isActive: true, image: nil
            )
        }
        _ = try storage.catalogStore.importCatalog(kept, origin: .own)
        let before = try #require(try storage.sessions.stored(session))
        #expect(throws: CartError.nothingForSale) { try storage.carts.checkout(for: session, at: now) }
        #expect(try storage.sessions.stored(session) == before, "a refused checkout changed the session")
    }

    @Test("Current counts and versions by live key leave out lines no longer for sale and shoppers not stored", arguments: StoreBackend.allCases)
    func currentChangesByLiveKey(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let products = storage.liveCatalog.current.catalog.products
        let tent = try #require(products.first { $0.slug == "ultralight-tent" })
        let session = TestSessions.new(), other = TestSessions.new(), unstored = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: session, at: now)
        let change = try storage.carts.add(productID: tent.id, for: session, at: now)
        _ = try storage.carts.add(productID: tent.id, for: other, at: now)
        let keys = [session, other, unstored].map(\.shopperLiveKey)
        #expect(try storage.carts.currentChanges(forLiveKeys: keys) == [keys[0]: change, keys[1]: CartChange(itemCount: 4, version: 1)])
        #expect(try storage.carts.currentChanges(forLiveKeys: []).isEmpty)
        let kept = products.filter { $0.id != tent.id }.map { product in
            CatalogEntry(
                slug: product.slug, name: product.name, summary: product.summary, category: product.category, price: product.price,
                icon: product.icon, isFeatured: product.isFeatured, isActive: true, image: nil
            )
        }
        _ = try storage.catalogStore.importCatalog(kept, origin: .own)
        #expect(try storage.carts.currentChanges(forLiveKeys: [keys[0]]) == [keys[0]: CartChange(itemCount: 3, version: change.version)])
    }

    @Test("Two requests storing the same new session store it once, and both changes count", arguments: StoreBackend.allCases)
    func storingTwiceIsHarmless(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        // Both requests resolved the session before either stored it.
        _ = try storage.carts.add(productID: tent.id, for: session, at: now)
        let change = try storage.carts.add(productID: tent.id, for: session, at: now)
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.items.map(\.quantity) == [1, 2, 2], "\(stored.cart)")
        #expect(change == CartChange(itemCount: 5, version: 2))
    }

    @Test("touch moves last-seen; an unknown id is left alone", arguments: StoreBackend.allCases)
    func touch(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        try storage.sessions.touch(clientID: session.clientID, at: now)
        #expect(try storage.sessions.stored(session) == nil)
        try storage.sessions.setDisplayName("Ada", for: session, at: now)
        try storage.sessions.touch(clientID: session.clientID, at: now + 500)
        #expect(try storage.sessions.stored(session)?.lastSeen == now + 500)
    }

    @Test("deleteSession removes the session with its cart and searches; its orders stay", arguments: StoreBackend.allCases)
    func deleteSession(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new(), other = TestSessions.new()
        let (orderID, _) = try storage.carts.checkout(for: session, at: now)
        let stored = TestSessions.stored(session)
        _ = try storage.carts.add(productID: 3, for: stored, at: now)
        try storage.searches.recordSearch("tent", for: stored, at: now * 1000)
        try storage.sessions.setDisplayName("Bob", for: other, at: now)
        try storage.sessions.endClients([session.clientID], ofShopper: session.shopperID, spendingUnstored: nil, at: TestSessions.start)
        #expect(try storage.sessions.stored(session) == nil)
        #expect(try storage.searches.recentSearches(for: stored) == [])
        #expect(try storage.orders.orders(for: stored).map(\.id) == [orderID], "orders are records of sales")
        #expect(try storage.sessions.stored(other)?.displayName == "Bob", "another session is untouched")
        try storage.sessions.endClients([session.clientID], ofShopper: session.shopperID, spendingUnstored: nil, at: TestSessions.start)
    }

    @Test("Display names and preferences are kept per session", arguments: StoreBackend.allCases)
    func namesAndPreferences(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let ada = TestSessions.new(), bob = TestSessions.new()
        let preferences = Preferences(theme: .dark, tabOrder: ["profile", "home", "search"], usesSidebar: true, notifications: false)
        try storage.sessions.setPreferences(preferences, for: ada, at: now)
        try storage.sessions.setDisplayName("Ada Lovelace", for: TestSessions.stored(ada), at: now + 1)
        try storage.sessions.setDisplayName("Bob", for: bob, at: now)
        let stored = try #require(try storage.sessions.stored(ada))
        #expect(stored.preferences == preferences)
        #expect(stored.displayName == "Ada Lovelace")
        #expect(stored.lastSeen == now, "last seen is the client's: set when stored, moved by touch")
        #expect(try storage.sessions.stored(bob)?.preferences == .standard)
        try storage.sessions.setPreferences(.standard, for: TestSessions.stored(ada), at: now + 2)
        #expect(try storage.sessions.stored(ada)?.preferences == .standard)
    }

    @Test("The session lookup carries the cart in the order items were added, and its version", arguments: StoreBackend.allCases)
    func lookupCarriesTheCart(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let slugs = ["ultralight-tent", "trail-running-shoes", "daypack-22l"]
        let products = try slugs.map { try storage.product($0) }
        var session = TestSessions.new()
        var last = CartChange(itemCount: 0, version: 0)
        // Added within one second: the order still holds.
        for product in products {
            last = try storage.carts.add(productID: product.id, for: session, at: now)
            session = TestSessions.stored(session)
        }
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.items.map(\.product.slug) == slugs)
        #expect(stored.cartVersion == last.version)
        #expect(stored.cart.itemCount == last.itemCount)
    }

    @Test("Sessions last seen before the cutoff are purged with their carts and searches; orders stay", arguments: StoreBackend.allCases)
    func purge(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let old = TestSessions.new(), recent = TestSessions.new()
        let (orderID, _) = try storage.carts.checkout(for: old, at: now - 1000)
        try storage.searches.recordSearch("tent", for: TestSessions.stored(old), at: (now - 1000) * 1000)
        try storage.sessions.setDisplayName("Ada", for: recent, at: now)
        try storage.searches.recordSearch("tent", for: TestSessions.stored(recent), at: now * 1000)

        #expect(try storage.sessions.deleteSessions(lastSeenBefore: now - 10) == 1)
        #expect(try storage.sessions.stored(old) == nil)
        #expect(try storage.sessions.stored(recent) != nil)
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(recent)) == ["tent"])
        #expect(try storage.orders.orders(for: TestSessions.stored(old)).map(\.id) == [orderID], "orders outlive their session")
        // The purged id starts again from nothing: no cart or searches come back with it.
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(old)) == [])
        try storage.sessions.setDisplayName("Again", for: old, at: now)
        #expect(try storage.sessions.stored(old)?.cart == storage.liveCatalog.current.starterCart)
        #expect(try storage.sessions.deleteSessions(lastSeenBefore: now - 10) == 0)
    }

    // MARK: - Carts

    @Test("add appends a line, or raises its quantity up to 10", arguments: StoreBackend.allCases)
    func add(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent"), shoes = try storage.product("trail-running-shoes")
        let session = TestSessions.new()
        let first = try storage.carts.add(productID: tent.id, for: session, at: now)
        #expect(first == CartChange(itemCount: 4, version: 1))
        var change = first
        for _ in 0..<12 { change = try storage.carts.add(productID: shoes.id, for: TestSessions.stored(session), at: now) }
        #expect(change == CartChange(itemCount: 13, version: 10), "shoes stop at 10 (10 + 2 bottles + 1 tent); adding more changes nothing, the version neither")
        let cart = try #require(try storage.sessions.stored(session)).cart
        #expect(cart.items.map(\.product.slug) == ["trail-running-shoes", "insulated-water-bottle", "ultralight-tent"])
        #expect(cart.quantity(of: shoes.id) == 10)
    }

    @Test("setQuantity sets and clamps; a product not in the cart is notInCart", arguments: StoreBackend.allCases)
    func setQuantity(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes"), tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        for (posted, expected) in [(7, 7), (0, 1), (-3, 1), (11, 10), (Int.max, 10), (Int.min, 1), (4, 4)] {
            let change = try storage.carts.setQuantity(posted, of: shoes.id, for: session, at: now)
            #expect(change.itemCount == expected + 2, "\(posted) should become \(expected)")
            #expect(try storage.sessions.stored(session)?.cart.quantity(of: shoes.id) == expected)
        }
        let before = try storage.sessions.stored(session)
        #expect(throws: CartError.notInCart) { try storage.carts.setQuantity(2, of: tent.id, for: TestSessions.stored(session), at: now) }
        #expect(try storage.sessions.stored(session) == before, "a refused change changed something")
    }

    @Test("adjustQuantity adds to the quantity stored now, clamped into 1...10", arguments: StoreBackend.allCases)
    func adjustQuantity(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes"), tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        let steps: [(delta: Int, expected: Int)] = [(1, 2), (1, 3), (-1, 2), (20, 10), (1, 10), (-4, 6), (-50, 1), (-1, 1), (Int.max, 10), (Int.min, 1)]
        for step in steps {
            let change = try storage.carts.adjustQuantity(by: step.delta, of: shoes.id, for: session, at: now)
            #expect(change.itemCount == step.expected + 2, "\(step.delta) should leave \(step.expected)")
        }
        #expect(try storage.sessions.stored(session)?.cart.quantity(of: shoes.id) == 1)
        #expect(throws: CartError.notInCart) { try storage.carts.adjustQuantity(by: 1, of: tent.id, for: TestSessions.stored(session), at: now) }
    }

    @Test("A change that changes nothing leaves the version as it is and stores no new session", arguments: StoreBackend.allCases)
    func changesThatChangeNothing(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes"), bottle = try storage.product("insulated-water-bottle")
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        // The starter cart: one pair of shoes, two bottles, at version 0.
        let asItIs = CartChange(itemCount: 3, version: 0)
        #expect(try storage.carts.adjustQuantity(by: -1, of: shoes.id, for: session, at: now) == asItIs, "decrease at 1")
        #expect(try storage.carts.setQuantity(2, of: bottle.id, for: session, at: now) == asItIs, "the quantity there")
        #expect(try storage.carts.setQuantity(0, of: shoes.id, for: session, at: now) == asItIs, "clamped to the 1 there")
        #expect(try storage.carts.remove(productID: tent.id, for: session, at: now) == asItIs, "a line not there")
        #expect(try storage.sessions.stored(session) == nil, "a change that changed nothing stored the session")
        #expect(throws: CartError.notInCart) { try storage.carts.setQuantity(2, of: tent.id, for: session, at: now) }

        let full = try storage.carts.setQuantity(10, of: shoes.id, for: session, at: now)
        #expect(full == CartChange(itemCount: 12, version: 1))
        let stored = TestSessions.stored(session)
        #expect(try storage.carts.add(productID: shoes.id, for: stored, at: now) == full, "adding at 10")
        #expect(try storage.carts.adjustQuantity(by: 3, of: shoes.id, for: stored, at: now, ifVersion: 1, key: nil) == full, "raising at 10")
        #expect(throws: CartError.staleVersion) { try storage.carts.setQuantity(10, of: shoes.id, for: stored, at: now, ifVersion: 0, key: nil) }
        #expect(try storage.sessions.stored(session)?.cartVersion == 1)
    }

    @Test("Concurrent adjustments of one line all count", arguments: StoreBackend.allCases)
    func concurrentAdjustmentsAllCount(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let session = TestSessions.new()
        // A change, so that the session is stored: setting the 1 there would change nothing.
        _ = try storage.carts.setQuantity(2, of: shoes.id, for: session, at: now)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                _ = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.quantity(of: shoes.id) == 10)
        #expect(stored.cartVersion == 9)
    }

    @Test("remove takes a line out; removing an absent one changes nothing, the version neither", arguments: StoreBackend.allCases)
    func remove(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes"), tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        #expect(try storage.carts.remove(productID: shoes.id, for: session, at: now) == CartChange(itemCount: 2, version: 1))
        #expect(try storage.carts.remove(productID: tent.id, for: TestSessions.stored(session), at: now) == CartChange(itemCount: 2, version: 1))
        let cart = try #require(try storage.sessions.stored(session)).cart
        #expect(cart.items.map(\.product.slug) == ["insulated-water-bottle"])
    }

    @Test("restore puts a removed line back after the others with its quantity, once; a line there already is alreadyInCart", arguments: StoreBackend.allCases)
    func restore(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let session = TestSessions.new()
        _ = try storage.carts.remove(productID: shoes.id, for: session, at: now)
        let stored = TestSessions.stored(session)
        #expect(try storage.carts.restore(productID: shoes.id, quantity: 14, for: stored, at: now) == CartChange(itemCount: 12, version: 2))
        #expect(throws: CartError.alreadyInCart) { try storage.carts.restore(productID: shoes.id, quantity: 3, for: stored, at: now) }
        let after = try #require(try storage.sessions.stored(session))
        #expect(after.cart.items.map { "\($0.quantity) × \($0.product.slug)" } == ["2 × insulated-water-bottle", "10 × trail-running-shoes"])
        #expect(after.cartVersion == 2, "a refused restore moved the version")
    }

    @Test("Checkout copies names and prices into an order, empties the cart; orders come newest first", arguments: StoreBackend.allCases)
    func checkout(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        let (firstID, emptied) = try storage.carts.checkout(for: session, at: now)
        #expect(emptied == CartChange(itemCount: 0, version: 1))
        #expect(try storage.sessions.stored(session)?.cart.isEmpty == true)
        #expect(throws: CartError.emptyCart) { try storage.carts.checkout(for: TestSessions.stored(session), at: now + 1) }

        _ = try storage.carts.add(productID: tent.id, for: TestSessions.stored(session), at: now + 5)
        _ = try storage.carts.adjustQuantity(by: 2, of: tent.id, for: TestSessions.stored(session), at: now + 5)
        let (secondID, _) = try storage.carts.checkout(for: TestSessions.stored(session), at: now + 10)
        #expect(secondID != firstID)

        let orders = try storage.orders.orders(for: TestSessions.stored(session))
        #expect(orders.map(\.id) == [secondID, firstID])
        #expect(orders.map(\.placedAt) == [now + 10, now])
        #expect(orders[0].lines == [Order.Line(name: "Ultralight Tent", unitPrice: Money(cents: 34_900), quantity: 3, productSlug: "ultralight-tent")])
        #expect(orders[1].lines == [
            Order.Line(name: "Trail Running Shoes", unitPrice: Money(cents: 12_800), quantity: 1, productSlug: "trail-running-shoes"),
            Order.Line(name: "Insulated Water Bottle", unitPrice: Money(cents: 2_450), quantity: 2, productSlug: "insulated-water-bottle"),
        ])
        #expect(orders[1].total == Money(cents: 17_700))
        #expect(try storage.orders.orders(for: TestSessions.stored(TestSessions.new())) == [], "another session sees no orders")
    }

    @Test("Versions grow with every change of a cart, and carts of sessions are separate", arguments: StoreBackend.allCases)
    func versionsAndIsolation(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let ada = TestSessions.new(), bob = TestSessions.new()
        let versions = [
            try storage.carts.add(productID: shoes.id, for: ada, at: now).version,
            try storage.carts.setQuantity(5, of: shoes.id, for: TestSessions.stored(ada), at: now).version,
            try storage.carts.adjustQuantity(by: -1, of: shoes.id, for: TestSessions.stored(ada), at: now).version,
            try storage.carts.remove(productID: shoes.id, for: TestSessions.stored(ada), at: now).version,
            try storage.carts.checkout(for: TestSessions.stored(ada), at: now).change.version,
        ]
        #expect(versions == [1, 2, 3, 4, 5])
        _ = try storage.carts.setQuantity(9, of: shoes.id, for: bob, at: now)
        #expect(try storage.sessions.stored(ada)?.cart.isEmpty == true)
        #expect(try storage.sessions.stored(bob)?.cart.quantity(of: shoes.id) == 9)
        #expect(try storage.sessions.stored(bob)?.cartVersion == 1)
    }

    @Test("A cart's version never goes back, whichever line the last change wrote or took away", arguments: StoreBackend.allCases)
    func versionsOverLinesAndRemovals(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes"), bottle = try storage.product("insulated-water-bottle")
        let ada = TestSessions.new(), stored = TestSessions.stored(ada)
        func version() throws -> Int64? { try storage.sessions.stored(ada)?.cartVersion }
        #expect(try storage.carts.setQuantity(4, of: shoes.id, for: ada, at: now).version == 1)
        #expect(try storage.carts.adjustQuantity(by: 1, of: bottle.id, for: stored, at: now).version == 2)
        #expect(try storage.carts.remove(productID: bottle.id, for: stored, at: now).version == 3)
        #expect(try version() == 3, "the removed line had the newest version; the shoes' is older")
        #expect(try storage.carts.adjustQuantity(by: -1, of: shoes.id, for: stored, at: now).version == 4)
        #expect(throws: CartError.staleVersion) { try storage.carts.add(productID: bottle.id, quantity: 1, for: stored, at: now, ifVersion: 3, key: nil) }
        #expect(try storage.carts.add(productID: bottle.id, quantity: 1, for: stored, at: now, ifVersion: 4, key: nil).version == 5)
        #expect(try storage.carts.remove(productID: bottle.id, for: stored, at: now).version == 6)
        #expect(try storage.carts.restore(productID: bottle.id, quantity: 2, for: stored, at: now).version == 7)
        #expect(try storage.carts.remove(productID: shoes.id, for: stored, at: now).version == 8)
        #expect(try version() == 8)
        #expect(try storage.carts.checkout(for: stored, at: now).change == CartChange(itemCount: 0, version: 9))
        #expect(try version() == 9)
        #expect(try storage.carts.add(productID: shoes.id, for: stored, at: now).version == 10)
        #expect(try version() == 10)
    }

    @Test("On SQLite a quantity change writes one page, its line's: the version rides on the line")
    func aQuantityChangeWritesOnePage() throws {
        let location = try StoreBackend.sqlite.makeLocation()
        let storage = try location.open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let ada = TestSessions.new()
        _ = try storage.carts.setQuantity(2, of: shoes.id, for: ada, at: now)
        func walBytes() throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: location.database + "-wal")[.size] as? Int) ?? 0
        }
        let before = try walBytes()
        #expect(try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(ada), at: now).version == 2)
        #expect(try walBytes() - before == 24 + 4096, "one WAL frame: a header and one 4 KiB page")
    }

    // MARK: - Live badge

    @Test("The backend's badge publisher brings a committed change to the session's streams, and no one else's", arguments: StoreBackend.allCases)
    func badgePublisher(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let hub = BadgeHub()
        let publisher = storage.badgePublisher(deliveringTo: hub)
        let ada = TestSessions.new(), bob = TestSessions.new()
        let adaStream = EventStream(), bobStream = EventStream()
        // Ended as the server ends a stream whose client left: the hub lets go of them.
        defer { adaStream.finish(); bobStream.finish() }
        hub.subscribe(adaStream, liveKey: ada.shopperLiveKey, client: ada.liveKey, current: CartChange(itemCount: 3, version: 0))
        hub.subscribe(bobStream, liveKey: bob.shopperLiveKey, client: bob.liveKey, current: CartChange(itemCount: 3, version: 0))
        #expect(adaStream.drainedText().contains("data: 3"))
        _ = bobStream.drainedText()

        let change = try storage.carts.add(productID: tent.id, for: ada, at: now)
        publisher.publish(change, for: ada)
        // A backend shared by several instances may bring the news back through the database.
        var received = ""
        let deadline = Date().addingTimeInterval(2)
        while !received.contains("data: 4"), Date() < deadline {
            received += adaStream.drainedText()
            if !received.contains("data: 4") { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(received.contains("event: badge") && received.contains("data: 4"), "ada's stream got “\(received)”")
        #expect(bobStream.drainedText() == "", "another session's stream heard the change")
    }

    // MARK: - Recent searches

    @Test("Recent searches: newest first, five kept, another case replaces the older spelling", arguments: StoreBackend.allCases)
    func recentSearches(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        try storage.searches.recordSearch("tent", for: session, at: now * 1000)
        #expect(try storage.sessions.stored(session) == nil, "a search stores no session")
        try storage.sessions.setDisplayName("Ada", for: session, at: now)
        let stored = TestSessions.stored(session)
        #expect(try storage.searches.recentSearches(for: stored) == [], "the search of the session not stored then is not kept")
        try storage.searches.recordSearch("tent", for: stored, at: now * 1000)
        // All in one millisecond: the order of recording still decides.
        for query in ["shoes", "bottle", "Tent", "lamp", "watch", "jacket"] {
            try storage.searches.recordSearch(query, for: stored, at: now * 1000 + 1)
        }
        #expect(try storage.searches.recentSearches(for: stored) == ["jacket", "watch", "lamp", "Tent", "bottle"])
        #expect(try storage.sessions.stored(session)?.newestSearch == "jacket", "every page reads the newest with the session")
        try storage.searches.recordSearch("bottle", for: stored, at: now * 1000 + 2)
        #expect(try storage.searches.recentSearches(for: stored) == ["bottle", "jacket", "watch", "lamp", "Tent"])
        #expect(try storage.sessions.stored(session)?.newestSearch == "bottle", "an older search searched again is the newest")
        try storage.searches.recordSearch("BOTTLE", for: stored, at: now * 1000 + 2)
        #expect(try storage.sessions.stored(session)?.newestSearch == "BOTTLE", "the newest spelling replaces the older")
        try storage.searches.clearSearches(for: stored, at: now)
        #expect(try storage.sessions.stored(session)?.newestSearch == nil, "cleared")
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(TestSessions.new())) == [])
    }
}

extension StoreTests {
    @Test("An unreachable PostgreSQL is unavailable storage, and the message hides the password",
          arguments: ["postgres://shop:s3cret@127.0.0.1:1/quickcart", "postgresql://shop:s3cret@127.0.0.1:1/quickcart?sslmode=disable",
                      "postgres://shop:s3cret?x#y@127.0.0.1:1/quickcart?connect_timeout=2"])
    func unreachablePostgres(url: String) throws {
        var configuration = Configuration()
        configuration.databasePath = url
        let error = try #require(throws: StorageError.self) { try Storage.open(configuration, connections: 2) }
        #expect(!error.description.contains("s3cret"), "the password reached the message: \(error)")
        #expect(!Storage.loggable(url).contains("s3cret"), "the start line would show it: \(Storage.loggable(url))")
    }

    @Test("A database URL is logged without its password; a file path as it is")
    func loggableLocation() {
        #expect(Storage.loggable("postgres://shop:s3cret@db.internal:5432/quickcart") == "postgres://shop:***@db.internal:5432/quickcart")
        #expect(Storage.loggable("postgresql://shop@db.internal/quickcart?password=s3cret") == "postgresql://shop@db.internal/quickcart?password=***")
        #expect(Storage.loggable("postgres://shop:s3?cret@db.internal/quickcart?sslmode=require") == "postgres://shop:***@db.internal/quickcart?sslmode=require")
        #expect(Storage.loggable("/var/lib/quickcart.sqlite") == "/var/lib/quickcart.sqlite")
    }
}
