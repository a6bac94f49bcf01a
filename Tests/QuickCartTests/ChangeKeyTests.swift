import Postgres
@testable import QuickCart
import SQLite
import Testing

/// One press, one change: a cart-change post that carries a ``ChangeKey`` (the page script
/// adds a fresh one per press) counts once, however often the browser resends it after its
/// answer was lost; posts without one all count, as load tools and pages without JavaScript send.
@Suite("Change keys")
struct ChangeKeyTests {
    private let now = TestSessions.start

    private static func key(_ text: String) throws -> ChangeKey {
        try #require(ChangeKey(text))
    }

    // MARK: - Stores

    @Test("The same key twice on one line changes it once, and the second is a replay of the cart as it is", arguments: StoreBackend.allCases)
    func sameKeyTwice(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let session = TestSessions.new(), key = try Self.key("press-0000000000001")
        let first = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: session, at: now, key: key)
        #expect(first == CartChange(itemCount: 4, version: 1))
        let again = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now, key: key)
        #expect(again == CartChange(itemCount: 4, version: 1, isReplay: true), "the cart as the first left it, version and all")
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.quantity(of: shoes.id) == 2 && stored.cartVersion == 1)

        // The other line changes of the same press are replays too.
        #expect(try storage.carts.setQuantity(7, of: shoes.id, for: TestSessions.stored(session), at: now, key: key).isReplay)
        #expect(try storage.carts.add(productID: shoes.id, for: TestSessions.stored(session), at: now, key: key).isReplay)
        #expect(try storage.sessions.stored(session)?.cart.quantity(of: shoes.id) == 2)
    }

    @Test("Two different keys, or no key twice, change a line twice", arguments: StoreBackend.allCases)
    func differentKeysAndNoKeysAllCount(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes"), bottle = try storage.product("insulated-water-bottle")
        let session = TestSessions.new()
        for key in ["press-000000000000a", "press-000000000000b"] {
            let change = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: session, at: now, key: try Self.key(key))
            #expect(!change.isReplay)
        }
        #expect(try storage.sessions.stored(session)?.cart.quantity(of: shoes.id) == 3, "1 + two presses")
        for _ in 0..<2 { _ = try storage.carts.add(productID: bottle.id, for: TestSessions.stored(session), at: now) }
        #expect(try storage.sessions.stored(session)?.cart.quantity(of: bottle.id) == 4, "2 + two adds without a key")

        // A keyed press, then posts without a key: they all count, and the line keeps the key.
        let key = try Self.key("press-000000000000c")
        for delta in [-1, -1] { _ = try storage.carts.adjustQuantity(by: delta, of: shoes.id, for: TestSessions.stored(session), at: now, key: nil) }
        _ = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now, key: key)
        for delta in [-1, -1] { _ = try storage.carts.adjustQuantity(by: delta, of: shoes.id, for: TestSessions.stored(session), at: now) }
        #expect(try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now, key: key).isReplay)
        #expect(try storage.sessions.stored(session)?.cart.quantity(of: shoes.id) == 1)
    }

    @Test("A keyed Add that made the line, resent, leaves one line of quantity 1", arguments: StoreBackend.allCases)
    func addThatMadeTheLineResent(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new(), key = try Self.key("Qk9Pb0ZaXzEtMnczNHE5")
        var changes: [CartChange] = [try storage.carts.add(productID: tent.id, for: session, at: now, key: key)]
        for _ in 0..<5 { changes.append(try storage.carts.add(productID: tent.id, for: TestSessions.stored(session), at: now, key: key)) }
        #expect(changes.map(\.itemCount) == Array(repeating: 1, count: 6))
        #expect(changes.map(\.isReplay) == [false] + Array(repeating: true, count: 5))
        let cart = try #require(try storage.sessions.stored(session)).cart
        #expect(cart.items.map(\.product.id) == [tent.id] && cart.quantity(of: tent.id) == 1)
    }

    @Test("A keyed change of a line the cart does not hold is notInCart, not a replay", arguments: StoreBackend.allCases)
    func keyedChangeOfAnAbsentLine(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new(), key = try Self.key("press-000000000000d")
        #expect(throws: CartError.notInCart) { try storage.carts.adjustQuantity(by: 1, of: tent.id, for: session, at: now, key: key) }
        #expect(throws: CartError.notInCart) { try storage.carts.setQuantity(3, of: tent.id, for: session, at: now, key: key) }
        #expect(try storage.sessions.stored(session) == nil, "a refused change stores nothing")
    }

    @Test("A keyed press that changes nothing keeps the version, stores no one and keeps no key: the line's press stays a replay", arguments: StoreBackend.allCases)
    func keyedPressThatChangesNothing(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let session = TestSessions.new()
        // The starter cart: one pair of shoes, two bottles, at version 0.
        let decrease = try Self.key("press-00000000000f1")
        for _ in 0..<2 {
            let atOne = try storage.carts.adjustQuantity(by: -1, of: shoes.id, for: session, at: now, key: decrease)
            #expect(atOne == CartChange(itemCount: 3, version: 0), "a decrease at 1, and its resend")
        }
        #expect(try storage.sessions.stored(session) == nil, "a press that changed nothing stored the session")

        let increase = try Self.key("press-00000000000f2"), same = try Self.key("press-00000000000f3")
        #expect(try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: session, at: now, key: increase) == CartChange(itemCount: 4, version: 1))
        for _ in 0..<2 {
            let unchanged = try storage.carts.setQuantity(2, of: shoes.id, for: TestSessions.stored(session), at: now, key: same)
            #expect(unchanged == CartChange(itemCount: 4, version: 1), "the quantity there, and its resend: no replay, no new version")
        }
        let resent = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now, key: increase)
        #expect(resent == CartChange(itemCount: 4, version: 1, isReplay: true), "the line still holds the key of the press that changed it")
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.quantity(of: shoes.id) == 2 && stored.cartVersion == 1)
    }

    @Test("Keyed Increase presses, each sent twice, raise the quantity once each up to 10; a resend at 10 is still a replay", arguments: StoreBackend.allCases)
    func keyedPressesUpToTheMaximum(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let session = TestSessions.new()
        _ = try storage.carts.add(productID: try storage.product("ultralight-tent").id, for: session, at: now)
        var answers: [CartChange] = []
        for press in 1...12 {
            let key = try Self.key("press-0000000000\(100 + press)")
            for _ in 0..<2 { answers.append(try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now, key: key)) }
        }
        // Shoes go 1 to 10 in nine presses (versions 2 to 10); the last three change nothing.
        let versions = (2...10).map(Int64.init) + [10, 10, 10]
        #expect(answers.map(\.version) == versions.flatMap { [$0, $0] })
        #expect(answers.map(\.isReplay) == Array(repeating: [false, true], count: 9).flatMap(\.self) + Array(repeating: false, count: 6))
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.quantity(of: shoes.id) == 10 && stored.cartVersion == 10)
    }

    @Test("Lines stored before change keys keep their quantities and the cart its version; keys work after", arguments: StoreBackend.allCases)
    func migrationKeepsLines(backend: StoreBackend) throws {
        let location = try backend.makeLocation()
        let session = TestSessions.new()
        do {
            let storage = try location.open()
            defer { storage.close() }
            _ = try storage.carts.add(productID: try storage.product("ultralight-tent").id, for: session, at: now)
            _ = try storage.carts.adjustQuantity(by: 3, of: try storage.product("trail-running-shoes").id, for: TestSessions.stored(session), at: now)
        }
        switch backend {
        case .sqlite:
            let db = try Database(path: location.database)
            let before = try #require(try db.fetchValue("PRAGMA user_version", as: Int.self))
            try db.execute(sql: "ALTER TABLE cart_items DROP COLUMN change_key; PRAGMA user_version = \(before - 1);")
            db.close()
        case .postgres:
            let connection = try PostgresConnection(connectionString: location.database)
            defer { connection.close() }
            try connection.execute(sql: """
                ALTER TABLE cart_items DROP COLUMN change_key;
                DELETE FROM schema_migrations WHERE name = 'v10-change-keys';
                """)
        }

        let storage = try location.open()
        defer { storage.close() }
        let shoes = try storage.product("trail-running-shoes")
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.items.map(\.product.slug) == ["trail-running-shoes", "insulated-water-bottle", "ultralight-tent"])
        #expect(stored.cart.items.map(\.quantity) == [4, 2, 1] && stored.cartVersion == 2)
        let key = try Self.key("press-000000000000e")
        for _ in 0..<2 { _ = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: TestSessions.stored(session), at: now, key: key) }
        #expect(try storage.sessions.stored(session)?.cart.quantity(of: shoes.id) == 5)
    }

    // MARK: - Posts

    static let malformed = [
        "", "short", String(repeating: "a", count: 15), String(repeating: "a", count: 65), "press+0000000000001", "press/0000000000001",
        "press=0000000000001", "press 0000000000001", "press.0000000000001", "préss-000000000001", "press-00000000000\u{0661}",
    ]

    @Test("A malformed change key gets 400 with a readable page, on Add and on a stepper, and changes nothing", arguments: malformed)
    func malformedKeyIsRefused(posted: String) throws {
        #expect(ChangeKey(posted) == nil)
        let shop = try TestShop()
        let browser = shop.browser()
        let before = try browser.cart()
        let shoes = try shop.productID(named: Products.shoes)
        let answers = [
            try browser.post("/cart/items", form: [("product", shoes), ("return_to", "/"), ("change", posted)]),
            try browser.post("/cart/items/\(shoes)/quantity", form: [("shown", "1"), ("quantity", "2"), ("return_to", "/cart"), ("change", posted)]),
        ]
        for answer in answers {
            #expect(answer.status == 400, "“\(posted)”: expected 400, saw \(answer.summary)")
            #expect(answer.tabBars.count == 1, "the 400 page should have the shop's layout")
            let message = answer.html.first("div") { $0["class"] == "error-page" }.map { answer.html.text(of: $0) } ?? ""
            #expect(message.contains("nothing was changed"), "“\(posted)”: the page should say so: “\(message)”")
        }
        #expect(try browser.cart() == before, "“\(posted)” changed the cart")
    }

    @Test("A keyed post sent again is answered as the first, with the same notice, and counts once; without a key both count")
    func resentPostIsAnsweredAsTheFirst() throws {
        let shop = try TestShop()
        let browser = shop.browser()
        let shoes = try shop.productID(named: Products.shoes)
        let form = [("shown", "1"), ("quantity", "2"), ("return_to", "/cart"), ("change", "Qk9Pb0ZaXzEtMnczNHE5")]
        let first = try browser.post("/cart/items/\(shoes)/quantity", form: form)
        let again = try browser.post("/cart/items/\(shoes)/quantity", form: form)
        var notices: [String?] = []
        for answer in [first, again] {
            #expect(answer.status == 303 && answer.location == "/cart#item-\(shoes)", "\(answer.summary)")
            notices.append(Notices.notice(on: try Notices.next(browser, after: answer, path: "/cart")))
        }
        #expect(notices == ["\(Products.shoes) — 2 in cart", "\(Products.shoes) — 2 in cart"])
        #expect(try browser.cart().row(Products.shoes)?.quantity == 2)

        let add = [("product", shoes), ("return_to", "/")]
        for _ in 0..<2 { _ = try browser.post("/cart/items", form: add) }
        #expect(try browser.cart().row(Products.shoes)?.quantity == 4, "posts without a key all count")
    }

    private typealias Notices = ShopTests.NoticeTests
}
