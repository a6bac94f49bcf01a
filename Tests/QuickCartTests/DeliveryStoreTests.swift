@testable import QuickCart
import Testing

/// Delivery methods, saved details and orders' delivery, on each backend.
@Suite("Delivery stores")
struct DeliveryStoreTests {
    private let now = TestSessions.start

    static func details(name: String = "Ada Lovelace", country: String = "US", method: String = "standard") -> DeliveryDetails {
        var details = DeliveryDetails()
        details.name = name
        details.email = "ada@example.com"
        details.phone = "+1 503 555 0100"
        details.addressLine1 = "12 Analytical Row"
        details.addressLine2 = "Flat 2"
        details.city = "Portland"
        details.region = "OR"
        details.postalCode = "97201"
        details.country = country
        details.method = method
        return details
    }

    /// The demo's delivery method `code`.
    static func method(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> DeliveryMethod {
        try #require(DeliverySeed.methods.first { $0.code == code }, "no delivery method \(code)", sourceLocation: sourceLocation)
    }

    /// Delivery by the demo's method `code` to ``details(method:)``, for an order of `subtotal`.
    static func delivery(by code: String, of subtotal: Money, sourceLocation: SourceLocation = #_sourceLocation) throws -> OrderDelivery {
        OrderDelivery(details: details(method: code), method: try method(code, sourceLocation: sourceLocation), subtotal: subtotal)
    }

    @Test("A method collected in the store asks no address and delivers nowhere: its countries are not ones parcels go to")
    func collectedMethod() {
        let pickup = DeliveryMethod(code: "pickup", name: "Pick up", price: .zero, countries: ["US"], payment: .inStore)
        let post = DeliveryMethod(code: "post", name: "Post", price: .zero, countries: ["CA"], payment: .bankTransfer)
        #expect(DeliveryMethod.countries(servedBy: [pickup, post]).map(\.code) == ["CA"])
        let toTheStoresCountry = Self.details(country: "US", method: "post").problems(methods: [pickup, post])
        #expect(toTheStoresCountry.first { $0.field == .country }?.message == "We do not deliver to that country. Choose one from the list.")
        #expect(Self.details(country: "NO", method: "pickup").problems(methods: [pickup, post]).isEmpty, "anyone may collect")
        var nowhere = Self.details(method: "pickup").withoutAddress
        #expect(nowhere.problems(methods: [pickup, post]).isEmpty && !nowhere.hasAddress)
        nowhere.method = "post"
        #expect(nowhere.problems(methods: [pickup, post]).map(\.field) == [.addressLine1, .city, .postalCode, .country], "a parcel needs its address")
        // An address a parcel would refuse, typed before choosing the pick-up (the form hides
        // it then): not refused, and not kept; what a parcel could use is kept.
        var hidden = Self.details(country: "US", method: "pickup")
        hidden.postalCode = "１２３４５〒"
        hidden.addressLine2 = "Flat\u{202E}2"
        #expect(hidden.problems(methods: [pickup, post]).isEmpty)
        let kept = hidden.keepingUsableAddress(for: [pickup, post])
        #expect(kept.postalCode == "" && kept.addressLine2 == "" && kept.country == "" && kept.addressLine1 == "12 Analytical Row" && kept.city == "Portland")
        #expect(hidden.keepingUsableAddress(for: [post]) == hidden, "kept whole when the method is no pick-up")
        let order = OrderDelivery(details: Self.details(method: "pickup"), method: pickup, subtotal: .zero)
        #expect(order.isCollected && order.details == Self.details(method: "pickup").withoutAddress, "the order keeps no address")
    }

    @Test("A new shop has the demo's delivery methods in order; an import replaces them whole, exactly", arguments: StoreBackend.allCases)
    func methods(backend: StoreBackend) throws {
        let location = try backend.makeLocation()
        let storage = try location.open()
        #expect(try storage.deliveryMethods.deliveryMethods() == DeliverySeed.methods)
        let own = [
            DeliveryMethod(code: "post", name: "Posten", price: Money(cents: 9_901), countries: ["NO", "SE"], freeFrom: Money(cents: 50_000),
                           payment: .bankTransfer, paymentDetails: "Konto 1234.56.78901"),
            DeliveryMethod(code: "shop", name: "Hent i butikken", price: .zero, countries: [], payment: .inStore),
        ]
        try storage.deliveryMethods.replaceDeliveryMethods(own)
        storage.close()
        let again = try location.open()
        defer { again.close() }
        #expect(try again.deliveryMethods.deliveryMethods() == own, "the import did not survive reopening as written")
    }

    @Test("Details are saved on the shopper, seen by its other clients, versioned, and deleted by it", arguments: StoreBackend.allCases)
    func savedDetails(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        #expect(try storage.deliveryDetails.deliveryDetails(for: session) == nil)
        let first = try storage.deliveryDetails.saveDeliveryDetails(Self.details(), for: session, at: now * 1000)
        #expect(try storage.sessions.stored(session) != nil, "saving details stores the session")
        let stored = TestSessions.stored(session)
        #expect(try storage.deliveryDetails.deliveryDetails(for: stored) == SavedDeliveryDetails(details: Self.details(), version: first))
        let phone = TestSessions.anotherClient(of: stored)
        #expect(try storage.deliveryDetails.deliveryDetails(for: phone)?.details == Self.details())

        // Saved twice in one millisecond, the version still moves.
        let second = try storage.deliveryDetails.saveDeliveryDetails(Self.details(name: "Ada King"), for: phone, at: now * 1000)
        #expect(second > first)
        #expect(try storage.deliveryDetails.deliveryDetails(for: stored)?.details.name == "Ada King")
        // The same details again (another tab's Continue) keep their version: a Review showing them stays current.
        #expect(try storage.deliveryDetails.saveDeliveryDetails(Self.details(name: "Ada King"), for: stored, at: now * 1000 + 500) == second)
        #expect(try storage.deliveryDetails.deliveryDetails(for: phone)?.version == second)
        #expect(try storage.deliveryDetails.deliveryDetails(for: TestSessions.stored(TestSessions.new())) == nil, "another shopper sees them")

        #expect(try storage.deliveryDetails.deleteDeliveryDetails(for: stored))
        #expect(try storage.deliveryDetails.deliveryDetails(for: phone) == nil)
        #expect(try !storage.deliveryDetails.deleteDeliveryDetails(for: stored))
        // Saved again after a delete, the version is the clock's: past every earlier one.
        let third = try storage.deliveryDetails.saveDeliveryDetails(Self.details(), for: stored, at: now * 1000 + 1_000)
        #expect(third > second, "details saved again after a delete must not reuse a version a page may show")
    }

    @Test("An order keeps its contact, address, method and payment; delivery is in its total, free from the method's amount", arguments: StoreBackend.allCases)
    func orderKeepsDelivery(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let cart = storage.liveCatalog.current.starterCart
        let session = TestSessions.new()
        let delivery = try Self.delivery(by: "standard", of: cart.subtotal)
        #expect(delivery.price == .zero, "the demo cart's $177.00 is past standard's free-from $100.00")
        let placed = try storage.carts.placeOrder(
            OrderPlacement(intent: .review(cartVersion: 0), shownLines: OrderPlacement.lines(of: cart), delivery: delivery), for: session, at: now
        )
        let order = try #require(try storage.orders.order(id: placed.orderID, for: TestSessions.stored(session)))
        #expect(order.delivery == delivery)
        #expect(order.delivery?.howToPay.contains("bank transfer") == true)
        #expect(order.total == Money(cents: 17_700))

        // A small order pays for delivery: two bottles, $49.00 + $6.95.
        let shoes = try storage.product("trail-running-shoes")
        let small = TestSessions.new()
        let change = try storage.carts.remove(productID: shoes.id, for: small, at: now)
        let stored = TestSessions.stored(small)
        let mine = try #require(try storage.sessions.stored(small)).cart
        let paid = try Self.delivery(by: "standard", of: mine.subtotal)
        #expect(paid.price == Money(cents: 695))
        let second = try storage.carts.placeOrder(
            OrderPlacement(intent: .review(cartVersion: change.version), shownLines: OrderPlacement.lines(of: mine), delivery: paid), for: stored, at: now
        )
        let read = try #require(try storage.orders.order(id: second.orderID, for: stored))
        #expect(read.subtotal == Money(cents: 4_900) && read.total == Money(cents: 5_595), "\(read.subtotal) + delivery")
        #expect(try storage.orders.orders(for: stored).first?.delivery?.details.city == "Portland")
    }

    @Test("A delivery price or method other than the one shown places nothing", arguments: StoreBackend.allCases)
    func deliveryChangedSinceShown(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let cart = storage.liveCatalog.current.starterCart
        let session = TestSessions.new()
        _ = try storage.sessions.setDisplayName("Ada", for: session, at: now)
        let stored = TestSessions.stored(session)
        let shown = try Self.delivery(by: "express", of: cart.subtotal)
        var dearer = try Self.method("express")
        dearer.price = Money(cents: 2_500)
        try storage.deliveryMethods.replaceDeliveryMethods(DeliverySeed.methods.map { $0.code == "express" ? dearer : $0 })
        let placement = OrderPlacement(intent: .review(cartVersion: 0), shownLines: OrderPlacement.lines(of: cart), delivery: shown)
        #expect(throws: CartError.changedSinceShown) { try storage.carts.placeOrder(placement, for: stored, at: now) }
        try storage.deliveryMethods.replaceDeliveryMethods(DeliverySeed.methods.filter { $0.code != "express" })
        #expect(throws: CartError.changedSinceShown) { try storage.carts.placeOrder(placement, for: stored, at: now) }
        #expect(try storage.orders.orders(for: stored).isEmpty)
        #expect(try storage.sessions.stored(session)?.cart == cart, "a refused placing emptied the cart")
    }
}
