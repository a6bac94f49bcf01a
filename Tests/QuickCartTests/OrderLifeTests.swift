import Foundation
@testable import QuickCart
import Testing

/// `quickcart orders mark`: every move the rule allows, every one it refuses, unknown orders
/// and bad operator text, on both backends, through the command as the operator runs it.
@Suite("Order life")
struct OrderLifeTests {
    /// The marks that take a new order to `state`.
    static func path(to state: OrderState) -> [OrderState] {
        switch state {
        case .placed: []
        case .paid: [.paid]
        case .shipped: [.paid, .shipped]
        case .delivered: [.paid, .shipped, .delivered]
        case .cancelled: [.cancelled]
        }
    }

    static func history(of id: Int64, in storage: any ShopStorage) throws -> [OrderStateChange] {
        try #require(try storage.orderFeed.placedOrders(afterID: id - 1, placedSince: nil, limit: 1).first { $0.id == id }).history
    }

    @Test("The rule: placed → paid, shipped or cancelled; paid → shipped or cancelled; shipped → delivered; nothing else")
    func rule() {
        let allowed = OrderState.allCases.flatMap { from in OrderState.allCases.filter(from.canMove(to:)).map { "\(from.rawValue)→\($0.rawValue)" } }
        #expect(allowed == ["placed→paid", "placed→shipped", "placed→cancelled", "paid→shipped", "paid→cancelled", "shipped→delivered"])
    }

    @Test("A tracking link is http(s) with a host, and a port from 1 to 65535 if it names one")
    func trackingLinks() {
        for link in ["https://track.example/1", "http://track.example:8080/a?b=c", "https://[2001:db8::1]:443/x", "https://[2001:db8::1]/x", "https://u@track.example:65535"] {
            #expect(OrderStateChange.isTrackingURL(link), "\(link)")
        }
        for link in ["https://track.example:65536/", "https://track.example:0", "https://track.example:-1/", "https://:80/", "https://u@/x", "ftp://track.example/"] {
            #expect(!OrderStateChange.isTrackingURL(link), "\(link)")
        }
    }

    @Test("Every move from every state: allowed ones are recorded with their time, refused ones change nothing", arguments: StoreBackend.allCases)
    func everyMove(backend: StoreBackend) throws {
        let (location, storage) = try OrderExportTests.open(backend)
        defer { storage.close() }
        for from in OrderState.allCases {
            for to in OrderState.allCases where to != .placed {
                let id = try OrderExportTests.placeOrder(storage, ["camp-mug"], at: TestSessions.start)
                for step in Self.path(to: from) {
                    let run = OperatorRun(["orders", "mark", String(id), step.rawValue], database: location.database)
                    #expect(run.status == 0, "\(from)→\(step): \(run.report)")
                }
                let before = try Self.history(of: id, in: storage)
                #expect(before.map(\.state) == [.placed] + Self.path(to: from))
                let started = Int64(Date().timeIntervalSince1970)
                let run = OperatorRun(["orders", "mark", String(id), to.rawValue], database: location.database)
                let after = try Self.history(of: id, in: storage)
                if from.canMove(to: to) {
                    #expect(run.status == 0, "\(from)→\(to): \(run.report)")
                    #expect(run.output.hasPrefix("order \(id) is now \(to.rawValue) ("), "\(run.output)")
                    #expect(after.map(\.state) == before.map(\.state) + [to])
                    #expect((started...started + 5).contains(after.last?.at ?? 0), "the move's time is recorded")
                } else {
                    #expect(run.status == 1, "\(from)→\(to) must be refused: \(run.output)")
                    #expect(run.report.contains("quickcart: order \(id) is \(from.rawValue); it cannot become \(to.rawValue)"), "\(run.report)")
                    #expect(run.report.contains("nothing was changed"))
                    #expect(after == before, "a refused move changes nothing")
                }
            }
        }
    }

    @Test("An order paid by bank transfer is not shipped before it is marked paid; one paid on delivery or in the store may be", arguments: StoreBackend.allCases)
    func bankTransferShipsOncePaid(backend: StoreBackend) throws {
        let (location, storage) = try OrderExportTests.open(backend)
        defer { storage.close() }
        func place(by method: String) throws -> Int64 {
            let session = TestSessions.new()
            let change = try storage.carts.add(productID: try storage.product("camp-mug").id, for: session, at: TestSessions.start)
            let cart = try #require(try storage.sessions.stored(session)).cart
            return try storage.carts.placeOrder(
                OrderPlacement(
                    intent: .review(cartVersion: change.version), shownLines: OrderPlacement.lines(of: cart),
                    delivery: try DeliveryStoreTests.delivery(by: method, of: cart.subtotal)
                ),
                for: TestSessions.stored(session), at: TestSessions.start
            ).orderID
        }
        let transfer = try place(by: "standard")
        let refused = OperatorRun(["orders", "mark", String(transfer), "shipped"], database: location.database)
        #expect(refused.status == 1, "\(refused.report)")
        #expect(refused.report.contains(
            "quickcart: order \(transfer) is paid by bank transfer and not marked paid yet; once the money arrives: quickcart orders mark \(transfer) paid"
        ), "\(refused.report)")
        #expect(try Self.history(of: transfer, in: storage).map(\.state) == [.placed], "a refused move changes nothing")
        let skipped = OperatorRun(["orders", "mark", String(transfer), "delivered"], database: location.database)
        #expect(skipped.report.contains("order \(transfer) is placed; it cannot become delivered (from placed it can become paid or cancelled)"), "\(skipped.report)")
        for state in ["paid", "shipped", "delivered"] {
            #expect(OperatorRun(["orders", "mark", String(transfer), state], database: location.database).status == 0, "\(state)")
        }
        for method in ["express", "pickup"] {
            let id = try place(by: method)
            let shipped = OperatorRun(["orders", "mark", String(id), "shipped"], database: location.database)
            #expect(shipped.status == 0, "\(method): \(shipped.report)")
        }
        #expect(OrderState.placed.canMove(to: .shipped, paidBy: nil), "an order placed before checkout asked keeps the rule it had")
    }

    @Test("An unknown order and bad operator text are refused with a message, a non-zero exit and no change", arguments: StoreBackend.allCases)
    func refusals(backend: StoreBackend) throws {
        let (location, storage) = try OrderExportTests.open(backend)
        defer { storage.close() }
        let id = try OrderExportTests.placeOrder(storage, ["camp-mug"], at: TestSessions.start)
        let unknown = OperatorRun(["orders", "mark", String(id + 1000), "paid"], database: location.database)
        #expect(unknown.status == 1)
        #expect(unknown.report.contains("quickcart: there is no order \(id + 1000); nothing was changed"), "\(unknown.report)")

        let bad: [([String], String)] = [
            (["shipped", "--tracking", "javascript:alert(1)"], "--tracking must be an http:// or https:// link"),
            (["shipped", "--tracking", "https://"], "--tracking must be"),
            (["shipped", "--tracking", "https://track.example/\"><script>"], "--tracking must be"),
            (["shipped", "--tracking", "https://track.example/a b"], "--tracking must be"),
            (["shipped", "--carrier", "Post\u{1B}]0;owned\u{07}"], "--carrier must be printable"),
            (["shipped", "--carrier", String(repeating: "x", count: 81)], "--carrier must be printable"),
            (["cancelled", "--reason", "line one\nline two"], "--reason must be printable"),
            (["cancelled", "--reason", "   "], "--reason is empty"),
            (["shipped", "--carrier", ""], "--carrier is empty"),
            (["shipped", "--tracking"], "--tracking needs a value"),
            (["shipped", "--carrier", "A", "--carrier", "B"], "--carrier is given twice"),
            (["shipped", "--tracking", "https://a.example/1", "--tracking", "https://b.example/2"], "--tracking is given twice"),
            (["shipped", "--tracking", "https://track.example:99999/1"], "--tracking must be"),
            (["shipped", "--tracking", "https://track.example:0/1"], "--tracking must be"),
            (["shipped", "--tracking", "https://track.example:8x/1"], "--tracking must be"),
            (["shipped", "--tracking", "https://user@:443/1"], "--tracking must be"),
            (["paid", "--tracking", "https://track.example/1"], "--tracking goes with shipped"),
            (["shipped", "--reason", "why"], "--reason goes with cancelled"),
            (["placed"], "the state must be one of paid, shipped, delivered, cancelled"),
            (["sent"], "the state must be one of"),
            ([], "orders mark needs an order number and a state"),
        ]
        for (arguments, message) in bad {
            let run = OperatorRun(["orders", "mark", String(id)] + arguments, database: location.database)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.report.contains(message), "\(arguments): \(run.report)")
            #expect(!run.report.contains("\u{1B}"), "nothing from the operator drives the terminal")
        }
        for number in ["x\(id)", "##\(id)", "#", "-1", "-\(id)"] {
            let notANumber = OperatorRun(["orders", "mark", number, "paid"], database: location.database)
            #expect(notANumber.status == 2)
            #expect(notANumber.report.contains("the order number must be digits like 1042, not “\(number)”"), "\(number): \(notANumber.report)")
        }
        for number in ["99999999999999999999", "9223372036854775808", "0"] {
            let outOfRange = OperatorRun(["orders", "mark", number, "paid"], database: location.database)
            #expect(outOfRange.status == 2)
            #expect(outOfRange.report.contains("the order number \(number) is out of range: order numbers run from 1 to 9223372036854775807"), "\(outOfRange.report)")
        }
        #expect(OperatorRun(["orders", "mark", "", "paid"], database: location.database).report.contains("must be digits"))
        #expect(try Self.history(of: id, in: storage).map(\.state) == [.placed], "nothing refused was written")
        // "#1042", as the shopper's pages write it, is the order's number.
        let hashed = OperatorRun(["orders", "mark", "#\(id)", "paid"], database: location.database)
        #expect(hashed.status == 0, "\(hashed.report)")
        #expect(try Self.history(of: id, in: storage).map(\.state) == [.placed, .paid])
    }

    @Test("shipped keeps its carrier and tracking link, cancelled its reason, and the command prints them", arguments: StoreBackend.allCases)
    func saidWithTheMove(backend: StoreBackend) throws {
        let (location, storage) = try OrderExportTests.open(backend)
        defer { storage.close() }
        let shipped = try OrderExportTests.placeOrder(storage, ["camp-mug"], at: TestSessions.start)
        let run = OperatorRun(
            ["orders", "mark", String(shipped), "shipped", "--tracking", "https://track.example/QC-1?x=1&y=2", "--carrier", "Posten Norge"],
            database: location.database
        )
        #expect(run.status == 0, "\(run.report)")
        #expect(run.output.contains("; carrier: Posten Norge; tracking: https://track.example/QC-1?x=1&y=2\n"), "\(run.output)")
        let move = try #require(try Self.history(of: shipped, in: storage).last)
        #expect(move.state == .shipped && move.carrier == "Posten Norge" && move.trackingURL == "https://track.example/QC-1?x=1&y=2")

        let cancelled = try OrderExportTests.placeOrder(storage, ["camp-mug"], at: TestSessions.start)
        let cancel = OperatorRun(["orders", "mark", String(cancelled), "cancelled", "--reason", "Kunden angret – «ingen betaling»"], database: location.database)
        #expect(cancel.status == 0, "\(cancel.report)")
        #expect(try Self.history(of: cancelled, in: storage).last?.reason == "Kunden angret – «ingen betaling»")
    }
}
