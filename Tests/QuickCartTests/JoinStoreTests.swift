@testable import QuickCart
import Testing

/// The join and the devices in the stores themselves, on both backends.
@Suite("Join store")
struct JoinStoreTests {
    private let now = TestSessions.start

    @Test("A join adds the browser's lines to the shopper's, quantities added and clamped to 10 (and counts what was added); the browser's shopper goes, the code is used", arguments: StoreBackend.allCases)
    func joinMergesAndClamps(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let catalog = storage.liveCatalog.current.catalog
        let tent = try #require(catalog.product(slug: "ultralight-tent")), shoes = try #require(catalog.product(slug: "trail-running-shoes"))
        let dana = TestSessions.new(), laptop = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: dana, at: now)
        _ = try storage.carts.adjustQuantity(by: 6, of: tent.id, for: TestSessions.stored(dana), at: now)
        _ = try storage.carts.add(productID: tent.id, for: laptop, at: now)
        _ = try storage.carts.adjustQuantity(by: 4, of: tent.id, for: TestSessions.stored(laptop), at: now)
        _ = try storage.carts.add(productID: shoes.id, for: TestSessions.stored(laptop), at: now)
        try storage.searches.recordSearch("tent", for: TestSessions.stored(dana), at: now * 1000)
        try storage.searches.recordSearch("lamp", for: TestSessions.stored(laptop), at: now * 1000 + 5)
        try storage.joinCodes.createCode(hash: "hash-1", nonce: "nonce-1", for: TestSessions.stored(dana), at: now)
        #expect(try storage.joinCodes.preview(hash: "hash-1", at: now + 1) == JoinPreview(displayName: "Guest", itemCount: 7, shopperID: dana.shopperID))

        let outcome = try storage.joinCodes.join(hash: "hash-1", for: TestSessions.stored(laptop), renamingTo: nil, at: now + 2)
        guard case .joined(let merged, let change, let shopper, _, let showing) = outcome else {
            Issue.record("\(backend): \(outcome)")
            return
        }
        // Six of the laptop's items, of which the tents meet Dana's seven at the cap: four added.
        #expect(merged == 4 && shopper == dana.shopperID && showing == dana.clientID, "\(backend): \(merged)")
        let cart = try #require(try storage.sessions.stored(laptop)).cart
        #expect(cart.quantity(of: tent.id) == 10 && cart.quantity(of: shoes.id) == 1, "\(backend): \(cart)")
        #expect(change.itemCount == 11)
        #expect(try storage.sessions.stored(dana)?.cart == cart, "\(backend): one cart for both clients")
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(dana)) == ["lamp", "tent"], "\(backend): the browser's searches came along")
        #expect(try storage.sessions.stored(dana)?.newestSearch == "lamp" && storage.sessions.stored(laptop)?.newestSearch == "lamp")
        #expect(try storage.sessions.devices(ofShopper: dana.shopperID).map(\.clientID).sorted() == [dana.clientID, laptop.clientID].sorted())
        #expect(try storage.joinCodes.join(hash: "hash-1", for: TestSessions.new(), renamingTo: nil, at: now + 3) == .refused, "\(backend): a used code joined")
        #expect(try storage.joinCodes.newestCode(ofClient: dana.clientID)?.usedAt == now + 2)
    }

    @Test("A cart never changed (the starter cart of a browser stored for its theme) adds nothing at a join; once changed, all its lines are its own", arguments: StoreBackend.allCases)
    func starterCartIsNotMerged(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try #require(storage.liveCatalog.current.catalog.product(slug: "ultralight-tent"))
        let dana = TestSessions.new(), laptop = TestSessions.new(), tablet = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: dana, at: now)
        let danas = try #require(try storage.sessions.stored(dana)).cart
        var dark = Preferences.standard
        dark.theme = .dark
        try storage.sessions.setPreferences(dark, for: laptop, at: now)
        try storage.joinCodes.createCode(hash: "hash-s1", nonce: "nonce-s1", for: TestSessions.stored(dana), at: now)
        guard case .joined(let merged, _, _, _, _) = try storage.joinCodes.join(hash: "hash-s1", for: TestSessions.stored(laptop), renamingTo: nil, at: now + 1) else {
            Issue.record("\(backend): the laptop did not join")
            return
        }
        #expect(merged == 0, "\(backend): \(merged) items of a starter cart nobody chose were added")
        #expect(try storage.sessions.stored(dana)?.cart == danas, "\(backend)")
        // A tablet that changed its cart once (a bottle less): every line it has is its own.
        let bottle = try #require(danas.items.first { $0.quantity == 2 }).product
        _ = try storage.carts.adjustQuantity(by: -1, of: bottle.id, for: tablet, at: now)
        try storage.joinCodes.createCode(hash: "hash-s2", nonce: "nonce-s2", for: TestSessions.stored(dana), at: now + 2)
        guard case .joined(let added, _, _, _, _) = try storage.joinCodes.join(hash: "hash-s2", for: TestSessions.stored(tablet), renamingTo: nil, at: now + 3) else {
            Issue.record("\(backend): the tablet did not join")
            return
        }
        #expect(added == 2, "\(backend): \(added)")
    }

    @Test("The browser's orders and saved delivery details come along at the join (the shopper's own details win, an app's key both used stays the shopper's, and no Review page from before the join finds an order); a cart shared with other devices keeps them", arguments: StoreBackend.allCases)
    func ordersAndDetailsComeAlong(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let dana = TestSessions.new(), laptop = TestSessions.new(), phone = TestSessions.new()
        // Each places an order at its cart's first version (the same Review intent), then
        // another with the same app key.
        let key = try #require(OrderIntent(idempotencyKey: "checkout-1"))
        for session in [dana, laptop] {
            let change = try storage.carts.add(productID: tent.id, for: session, at: now)
            _ = try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: change.version)), for: TestSessions.stored(session), at: now + 1)
            _ = try storage.carts.add(productID: tent.id, for: TestSessions.stored(session), at: now + 1)
            _ = try storage.carts.placeOrder(OrderPlacement(intent: key), for: TestSessions.stored(session), at: now + 1)
        }
        let laptopOrders = try storage.orders.orders(for: TestSessions.stored(laptop)).map(\.id)
        let danaOrders = try storage.orders.orders(for: TestSessions.stored(dana)).map(\.id)
        let laptopLast = try #require(laptopOrders.last)
        let laptopOrder = try #require(try storage.orders.order(id: laptopLast, for: TestSessions.stored(laptop)))
        let danaKeyed = try #require(try storage.orders.order(intent: key, for: TestSessions.stored(dana)))
        _ = try storage.deliveryDetails.saveDeliveryDetails(DeliveryStoreTests.details(name: "Laptop Person"), for: TestSessions.stored(laptop), at: now * 1000)

        try storage.joinCodes.createCode(hash: "hash-o1", nonce: "nonce-o1", for: TestSessions.stored(dana), at: now + 2)
        guard case .joined = try storage.joinCodes.join(hash: "hash-o1", for: TestSessions.stored(laptop), renamingTo: nil, at: now + 3) else {
            Issue.record("\(backend): the join failed")
            return
        }
        let danaNow = TestSessions.stored(dana)
        #expect(try storage.orders.orders(for: danaNow).map(\.id).sorted() == (danaOrders + laptopOrders).sorted(), "\(backend)")
        #expect(try storage.orders.order(id: laptopOrder.id, for: danaNow)?.lines == laptopOrder.lines, "\(backend): the order changed on its way")
        #expect(try storage.orders.order(intent: key, for: danaNow)?.id == danaKeyed.id, "\(backend)")
        #expect(try storage.orders.order(intent: .review(cartVersion: 1), for: danaNow) == nil, "\(backend): a Review from before the join finds an order")
        #expect(try storage.deliveryDetails.deliveryDetails(for: danaNow)?.details.name == "Laptop Person", "\(backend)")

        // The phone saves its own details and joins: Dana's (the laptop's) stay.
        _ = try storage.deliveryDetails.saveDeliveryDetails(DeliveryStoreTests.details(name: "Phone Person"), for: phone, at: now * 1000)
        try storage.joinCodes.createCode(hash: "hash-o2", nonce: "nonce-o2", for: danaNow, at: now + 4)
        _ = try storage.joinCodes.join(hash: "hash-o2", for: TestSessions.stored(phone), renamingTo: nil, at: now + 5)
        #expect(try storage.deliveryDetails.deliveryDetails(for: danaNow)?.details.name == "Laptop Person", "\(backend)")

        // The laptop leaves the shared cart for a friend's: the orders stay with Dana's devices.
        let friend = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: friend, at: now)
        try storage.joinCodes.createCode(hash: "hash-o3", nonce: "nonce-o3", for: TestSessions.stored(friend), at: now + 6)
        _ = try storage.joinCodes.join(hash: "hash-o3", for: TestSessions.stored(laptop), renamingTo: nil, at: now + 7)
        #expect(try storage.orders.orders(for: danaNow).count == 4, "\(backend)")
        #expect(try storage.orders.orders(for: TestSessions.stored(friend)).isEmpty, "\(backend): a shared cart's orders went along")
    }

    @Test("A change read before its browser joined another cart goes to that cart, the one the browser shares now; and so does an app's keyed checkout, while a Review page's is reviewed again; a second press of Join is no error", arguments: StoreBackend.allCases)
    func changeInFlightAcrossAJoin(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let catalog = storage.liveCatalog.current.catalog
        let tent = try #require(catalog.product(slug: "ultralight-tent")), shoes = try #require(catalog.product(slug: "trail-running-shoes"))
        let dana = TestSessions.new(), laptop = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: dana, at: now)
        _ = try storage.carts.add(productID: shoes.id, for: laptop, at: now)
        // The laptop's session as a request read it before the join committed.
        let laptopBefore = TestSessions.stored(laptop)
        try storage.joinCodes.createCode(hash: "hash-m", nonce: "nonce-m", for: TestSessions.stored(dana), at: now)
        guard case .joined(_, let joined, _, let danaKey, _) = try storage.joinCodes.join(hash: "hash-m", for: laptopBefore, renamingTo: nil, at: now + 1) else {
            Issue.record("\(backend): the join failed")
            return
        }
        #expect(danaKey == dana.shopperLiveKey)
        #expect(try storage.joinCodes.join(hash: "hash-m", for: laptopBefore, renamingTo: nil, at: now + 1) == .alreadyJoined, "\(backend): a second press")

        let added = try storage.carts.add(productID: shoes.id, for: laptopBefore, at: now + 2)
        #expect(added == CartChange(itemCount: 3, version: joined.version + 1, movedToShopperLiveKey: danaKey), "\(backend): \(added)")
        #expect(try storage.sessions.stored(dana)?.cart.quantity(of: shoes.id) == 2, "\(backend): the add went elsewhere")
        let removed = try storage.carts.remove(productID: tent.id, for: laptopBefore, at: now + 3)
        #expect(removed == CartChange(itemCount: 2, version: joined.version + 2, movedToShopperLiveKey: danaKey), "\(backend): \(removed)")
        let unchanged = try storage.carts.setQuantity(2, of: shoes.id, for: laptopBefore, at: now + 4)
        #expect(unchanged == CartChange(itemCount: 2, version: joined.version + 2, movedToShopperLiveKey: danaKey), "\(backend): \(unchanged)")
        // Dana's own session was never moved.
        #expect(try storage.carts.add(productID: tent.id, for: TestSessions.stored(dana), at: now + 5).movedToShopperLiveKey == nil)
        // A Review page's checkout sent before the join names a version of the cart the browser
        // left, which Dana's orders may carry too: the browser reviews again.
        _ = try storage.carts.add(productID: shoes.id, for: TestSessions.stored(dana), at: now + 6)
        _ = try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 1)), for: TestSessions.stored(dana), at: now + 6)
        #expect(throws: CartError.changedSinceShown, "\(backend): a Review sent before the join was answered with Dana's order") {
            try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 1)), for: laptopBefore, at: now + 6)
        }
        // An app's key is its own: its checkout sent before the join checks out the cart it shares now.
        _ = try storage.carts.add(productID: shoes.id, for: TestSessions.stored(dana), at: now + 6)
        let keyed = try #require(OrderIntent(idempotencyKey: "laptop-1"))
        let placed = try storage.carts.placeOrder(OrderPlacement(intent: keyed), for: laptopBefore, at: now + 6)
        #expect(placed.change?.movedToShopperLiveKey == danaKey && placed.change?.itemCount == 0, "\(backend): \(placed)")
        #expect(try storage.sessions.stored(dana)?.cart.items.isEmpty == true, "\(backend): the order came from a cart the browser left")
    }

    @Test("A name, preferences, delivery details and searches sent before their browser joined another cart go to that cart's shopper; sent after a sign-out, they and cart changes are refused", arguments: StoreBackend.allCases)
    func profileChangesAcrossAJoin(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let dana = TestSessions.new(), laptop = TestSessions.new()
        try storage.sessions.setDisplayName("Dana", for: dana, at: now)
        try storage.sessions.setDisplayName("Laptop", for: laptop, at: now)
        // The laptop's session as requests read it before the join committed.
        let laptopBefore = TestSessions.stored(laptop)
        try storage.joinCodes.createCode(hash: "hash-p", nonce: "nonce-p", for: TestSessions.stored(dana), at: now)
        guard case .joined = try storage.joinCodes.join(hash: "hash-p", for: laptopBefore, renamingTo: nil, at: now + 1) else {
            Issue.record("\(backend): the join failed")
            return
        }

        try storage.sessions.setDisplayName("Dana Scully", for: laptopBefore, at: now + 2)
        let dark = Preferences(theme: .dark, tabOrder: ["profile", "search", "home"], usesSidebar: true, notifications: false)
        try storage.sessions.setPreferences(dark, for: laptopBefore, at: now + 2)
        _ = try storage.deliveryDetails.saveDeliveryDetails(DeliveryStoreTests.details(), for: laptopBefore, at: now * 1000 + 2_000)
        try storage.searches.recordSearch("lamp", for: laptopBefore, at: now * 1000 + 2_000)
        let shared = try #require(try storage.sessions.stored(dana))
        #expect(shared.displayName == "Dana Scully" && shared.preferences == dark, "\(backend): \(shared.displayName), \(shared.preferences)")
        #expect(try storage.deliveryDetails.deliveryDetails(for: TestSessions.stored(dana))?.details == DeliveryStoreTests.details(), "\(backend)")
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(dana)) == ["lamp"], "\(backend)")
        #expect(try storage.deliveryDetails.deleteDeliveryDetails(for: laptopBefore), "\(backend): the joined shopper's details stayed")
        try storage.searches.clearSearches(for: laptopBefore, at: now + 2)
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(dana)).isEmpty, "\(backend)")

        // Signed out meanwhile, the laptop's changes are refused and change nothing of anyone's.
        try storage.sessions.endClients([laptop.clientID], ofShopper: dana.shopperID, spendingUnstored: nil, at: now + 3)
        let tent = try storage.product("ultralight-tent")
        let refused: [(String, () throws -> Void)] = [
            ("name", { try storage.sessions.setDisplayName("Mallory", for: laptopBefore, at: now + 4) }),
            ("preferences", { try storage.sessions.setPreferences(.standard, for: laptopBefore, at: now + 4) }),
            ("details", { _ = try storage.deliveryDetails.saveDeliveryDetails(DeliveryStoreTests.details(name: "Mallory"), for: laptopBefore, at: now * 1000 + 4_000) }),
            ("search", { try storage.searches.recordSearch("crowbar", for: laptopBefore, at: now * 1000 + 4_000) }),
            ("add", { _ = try storage.carts.add(productID: tent.id, for: laptopBefore, at: now + 4) }),
            ("add after the join", { _ = try storage.carts.add(productID: tent.id, for: TestSessions.stored(laptop), at: now + 4) }),
            ("checkout", { _ = try storage.carts.placeOrder(OrderPlacement(intent: .review(cartVersion: 0)), for: laptopBefore, at: now + 4) }),
            ("code", { try storage.joinCodes.createCode(hash: "hash-m", nonce: "nonce-m", for: laptopBefore, at: now + 4) }),
        ]
        for (what, change) in refused {
            #expect(throws: StorageError.signedOut, "\(backend): \(what)") { try change() }
        }
        #expect(try storage.joinCodes.preview(hash: "hash-m", at: now + 5) == nil, "\(backend): a signed-out client's code")
        // A visitor never stored, signed out while its Show a code was on its way: no code (and the
        // shopper the write would have stored first rolls back with it).
        let visitor = TestSessions.new()
        try storage.sessions.endClients([visitor.clientID], ofShopper: visitor.shopperID, spendingUnstored: visitor.clientID, at: now + 3)
        #expect(throws: StorageError.signedOut, "\(backend)") {
            try storage.joinCodes.createCode(hash: "hash-v", nonce: "nonce-v", for: visitor, at: now + 4)
        }
        #expect(try storage.joinCodes.newestCode(ofClient: visitor.clientID) == nil, "\(backend)")
        // Nor does a join sent before its browser was signed out use a code, or say a device joined.
        try storage.joinCodes.createCode(hash: "hash-j", nonce: "nonce-j", for: TestSessions.stored(dana), at: now + 4)
        #expect(throws: StorageError.signedOut, "\(backend)") {
            _ = try storage.joinCodes.join(hash: "hash-j", for: laptopBefore, renamingTo: nil, at: now + 5)
        }
        #expect(try storage.joinCodes.preview(hash: "hash-j", at: now + 6) != nil, "\(backend): a signed-out browser's join used the code")
        let after = try #require(try storage.sessions.stored(dana))
        #expect(after.displayName == "Dana Scully" && after.preferences == dark && after.cart.items.isEmpty, "\(backend): \(after.displayName)")
        #expect(try storage.deliveryDetails.deliveryDetails(for: TestSessions.stored(dana)) == nil, "\(backend)")
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(dana)).isEmpty, "\(backend)")
    }

    @Test("Leaving a cart across a join: signing out with a session read before the join spends the client in the cart it joined; the joined cart's version passes the one it left; leaving a shared cart takes no one else's lines", arguments: StoreBackend.allCases)
    func leavingAcrossJoins(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let catalog = storage.liveCatalog.current.catalog
        let tent = try #require(catalog.product(slug: "ultralight-tent")), shoes = try #require(catalog.product(slug: "trail-running-shoes"))
        let dana = TestSessions.new(), laptop = TestSessions.new(), phone = TestSessions.new(), friend = TestSessions.new()
        _ = try storage.carts.add(productID: tent.id, for: dana, at: now)
        _ = try storage.carts.add(productID: shoes.id, for: laptop, at: now)
        var laptopVersion: Int64 = 0
        for _ in 0..<4 { laptopVersion = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(laptop), at: now).version }
        let laptopBefore = TestSessions.stored(laptop)
        try storage.joinCodes.createCode(hash: "hash-l1", nonce: "nonce-l1", for: TestSessions.stored(dana), at: now)
        guard case .joined(_, let joined, _, _, _) = try storage.joinCodes.join(hash: "hash-l1", for: laptopBefore, renamingTo: nil, at: now + 1) else {
            Issue.record("\(backend): the join failed")
            return
        }
        #expect(joined.version > laptopVersion, "\(backend): an If-Match of the cart the laptop left matches the joined one (\(joined.version))")

        let ended = try storage.sessions.endClients([laptop.clientID], ofShopper: laptopBefore.shopperID, spendingUnstored: laptop.clientID, at: now + 2)
        #expect(ended == [laptop.clientID], "\(backend): the laptop was not signed out of the cart it joined")
        #expect(try storage.sessions.devices(ofShopper: dana.shopperID).map(\.clientID) == [dana.clientID], "\(backend)")
        #expect(try storage.sessions.stored(dana)?.cart.quantity(of: shoes.id) == 5, "\(backend): Dana's cart went with the laptop")

        // Dana's phone joins; then Dana's first device leaves for a friend's cart: the shared
        // cart's lines stay with the phone, and nothing of them is added to the friend's.
        _ = try storage.carts.add(productID: tent.id, for: friend, at: now)
        try storage.joinCodes.createCode(hash: "hash-l2", nonce: "nonce-l2", for: TestSessions.stored(dana), at: now + 3)
        _ = try storage.joinCodes.join(hash: "hash-l2", for: phone, renamingTo: nil, at: now + 3)
        try storage.joinCodes.createCode(hash: "hash-l3", nonce: "nonce-l3", for: TestSessions.stored(friend), at: now + 4)
        guard case .joined(let merged, let shared, _, _, _) = try storage.joinCodes.join(hash: "hash-l3", for: TestSessions.stored(dana), renamingTo: nil, at: now + 5) else {
            Issue.record("\(backend): the second join failed")
            return
        }
        #expect(merged == 0 && shared.itemCount == 1, "\(backend): \(merged) items of a shared cart were taken along")
        #expect(try storage.sessions.devices(ofShopper: dana.shopperID).map(\.clientID) == [phone.clientID], "\(backend)")
    }

    @Test("A code dies with the device that showed it: signed out, or gone to another cart, its code neither previews nor joins", arguments: StoreBackend.allCases)
    func codeOfAnEndedClient(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let dana = TestSessions.new(), thief = TestSessions.new(), accomplice = TestSessions.new()
        try storage.sessions.setDisplayName("Dana", for: dana, at: now)
        try storage.joinCodes.createCode(hash: "hash-3", nonce: "nonce-3", for: TestSessions.stored(dana), at: now)
        _ = try storage.joinCodes.join(hash: "hash-3", for: thief, renamingTo: nil, at: now + 1)
        let thiefInside = Session(
            clientID: thief.clientID, shopperID: dana.shopperID, createdAt: now, displayName: "Dana", isStored: true,
            csrfToken: thief.csrfToken, liveKey: thief.liveKey, shopperLiveKey: dana.shopperLiveKey
        )
        try storage.joinCodes.createCode(hash: "hash-4", nonce: "nonce-4", for: thiefInside, at: now + 2)
        #expect(try storage.joinCodes.preview(hash: "hash-4", at: now + 3)?.shopperID == dana.shopperID)

        try storage.sessions.endClients([thief.clientID], ofShopper: dana.shopperID, spendingUnstored: nil, at: now + 4)
        #expect(try storage.joinCodes.preview(hash: "hash-4", at: now + 5) == nil, "\(backend): a signed-out device's code previews")
        #expect(try storage.joinCodes.join(hash: "hash-4", for: accomplice, renamingTo: nil, at: now + 5) == .refused, "\(backend): a signed-out device's code joined")
        #expect(try storage.sessions.devices(ofShopper: dana.shopperID).map(\.clientID) == [dana.clientID])

        // A device that showed a code and then joined another cart takes its invitation along.
        let other = TestSessions.new()
        try storage.joinCodes.createCode(hash: "hash-5", nonce: "nonce-5", for: TestSessions.stored(dana), at: now + 6)
        try storage.joinCodes.createCode(hash: "hash-6", nonce: "nonce-6", for: other, at: now + 6)
        _ = try storage.joinCodes.join(hash: "hash-6", for: TestSessions.stored(dana), renamingTo: nil, at: now + 7)
        #expect(try storage.joinCodes.join(hash: "hash-5", for: accomplice, renamingTo: nil, at: now + 8) == .refused, "\(backend): the code of a device that left joined")
    }

    @Test("A code shown in the same second as the one just used is the one a device's page shows", arguments: StoreBackend.allCases)
    func newestCodeInOneSecond(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let dana = TestSessions.new()
        try storage.joinCodes.createCode(hash: "hash-7", nonce: "nonce-7", for: dana, at: now)
        _ = try storage.joinCodes.join(hash: "hash-7", for: TestSessions.new(), renamingTo: nil, at: now + 1)
        try storage.joinCodes.createCode(hash: "hash-8", nonce: "nonce-8", for: TestSessions.stored(dana), at: now + 1)
        let newest = try storage.joinCodes.newestCode(ofClient: dana.clientID)
        #expect(newest?.nonce == "nonce-8" && newest?.usedAt == nil, "\(backend): \(String(describing: newest))")
    }

    @Test("Ending a client spends it and keeps the shopper while it has another; the last one takes the shopper along, not its orders", arguments: StoreBackend.allCases)
    func endingClients(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let dana = TestSessions.new(), laptop = TestSessions.new()
        try storage.sessions.setDisplayName("Dana", for: dana, at: now)
        try storage.joinCodes.createCode(hash: "hash-2", nonce: "nonce-2", for: TestSessions.stored(dana), at: now)
        _ = try storage.joinCodes.join(hash: "hash-2", for: laptop, renamingTo: nil, at: now + 1)
        let (order, _) = try storage.carts.checkout(for: TestSessions.stored(dana), at: now + 2)

        #expect(try storage.sessions.endClients([laptop.clientID], ofShopper: "someone-else", spendingUnstored: nil, at: now + 3) == [])
        #expect(try storage.sessions.endClients([laptop.clientID], ofShopper: dana.shopperID, spendingUnstored: nil, at: now + 3) == [laptop.clientID])
        #expect(try storage.sessions.session(clientID: laptop.clientID) == .spent)
        #expect(try storage.sessions.stored(dana)?.displayName == "Dana", "\(backend): the shopper went with one of two clients")
        try storage.sessions.endClients([dana.clientID], ofShopper: dana.shopperID, spendingUnstored: dana.clientID, at: now + 4)
        #expect(try storage.sessions.session(clientID: dana.clientID) == .spent)
        #expect(try storage.orders.orders(for: TestSessions.stored(dana)).map(\.id) == [order], "\(backend): the orders are records, kept")
        #expect(try storage.sessions.devices(ofShopper: dana.shopperID) == [])
    }
}
