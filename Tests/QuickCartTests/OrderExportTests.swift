import Foundation
import HTTPTesting
@testable import QuickCart
import Synchronization
import Testing

/// `quickcart orders export`: every session's orders with lines, totals, UTC times and the
/// number the shopper saw on Profile.
@Suite("Order export")
struct OrderExportTests {
    /// Places an order of `slugs` (one each) for a new session at `time`.
    static func placeOrder(_ storage: any ShopStorage, _ slugs: [String], at time: Int64) throws -> Int64 {
        var session = TestSessions.new()
        for slug in slugs {
            let product = try storage.product(slug)
            _ = try storage.carts.add(productID: product.id, for: session, at: time)
            session = TestSessions.stored(session)
        }
        return try storage.carts.checkout(for: session, at: time).orderID
    }

    /// What `orders export --follow --format json` prints while `body` runs, and for a
    /// follow interval and a half after it; it must stop when asked.
    static func following(_ database: String, while body: () throws -> Void) throws -> String {
        let stop = Atomic(false)
        let transcript = Transcript()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let run = OperatorRun(["orders", "export", "--follow", "--format", "json"], database: database, shouldContinue: { !stop.load(ordering: .relaxed) })
            transcript.append(run.output)
            finished.signal()
        }
        Thread.sleep(forTimeInterval: 0.3)
        try body()
        Thread.sleep(forTimeInterval: 1.5)
        stop.store(true, ordering: .relaxed)
        #expect(finished.wait(timeout: .now() + 5) == .success, "--follow did not stop")
        return transcript.text
    }

    /// A new, empty place on `backend` and its storage, whose new sessions start with empty carts.
    static func open(_ backend: StoreBackend) throws -> (StoreLocation, any ShopStorage) {
        let location = try backend.makeLocation()
        return (location, try location.open(emptyCarts: true))
    }

    @Test("CSV: one row per line with the order's number, UTC time and totals; JSON: one object per order", arguments: StoreBackend.allCases)
    func formats(backend: StoreBackend) throws {
        let (location, storage) = try Self.open(backend)
        // 2026-11-30T09:01:40Z
        let first = try Self.placeOrder(storage, ["trail-running-shoes", "insulated-water-bottle"], at: 1_796_029_300)
        let second = try Self.placeOrder(storage, ["camp-mug"], at: 1_796_029_301)
        storage.close()

        let csv = OperatorRun(["orders", "export"], database: location.database)
        #expect(csv.status == 0, "\(csv.report)")
        #expect(csv.output == """
            number,placed_at,order_total,order_items,line,slug,name,unit_price,quantity,line_total,\
            state,state_at,paid_at,shipped_at,delivered_at,cancelled_at,carrier,tracking_url,cancel_reason,\
            contact_name,email,phone,address_line1,address_line2,city,region,postal_code,country,\
            delivery_method,delivery_name,delivery_price,payment,payment_details,subtotal
            \(first),2026-11-30T09:01:40Z,152.50,2,1,trail-running-shoes,Trail Running Shoes,128.00,1,128.00,\
            placed,2026-11-30T09:01:40Z,,,,,,,,,,,,,,,,,,,,,,152.50
            \(first),2026-11-30T09:01:40Z,152.50,2,2,insulated-water-bottle,Insulated Water Bottle,24.50,1,24.50,\
            placed,2026-11-30T09:01:40Z,,,,,,,,,,,,,,,,,,,,,,152.50
            \(second),2026-11-30T09:01:41Z,34.50,1,1,camp-mug,Titanium Camp Mug,34.50,1,34.50,\
            placed,2026-11-30T09:01:41Z,,,,,,,,,,,,,,,,,,,,,,34.50

            """)

        let json = OperatorRun(["orders", "export", "--format", "json"], database: location.database)
        let expected = """
            [
              {"number": "\(first)", "placedAt": "2026-11-30T09:01:40Z", "total": "152.50", "itemCount": 2, "lines": [\
            {"slug": "trail-running-shoes", "name": "Trail Running Shoes", "unitPrice": "128.00", "quantity": 1, "lineTotal": "128.00"}, \
            {"slug": "insulated-water-bottle", "name": "Insulated Water Bottle", "unitPrice": "24.50", "quantity": 1, "lineTotal": "24.50"}], \
            "state": "placed", "stateAt": "2026-11-30T09:01:40Z", "history": [{"state": "placed", "at": "2026-11-30T09:01:40Z"}], \
            "subtotal": "152.50", "delivery": null},
              {"number": "\(second)", "placedAt": "2026-11-30T09:01:41Z", "total": "34.50", "itemCount": 1, "lines": [\
            {"slug": "camp-mug", "name": "Titanium Camp Mug", "unitPrice": "34.50", "quantity": 1, "lineTotal": "34.50"}], \
            "state": "placed", "stateAt": "2026-11-30T09:01:41Z", "history": [{"state": "placed", "at": "2026-11-30T09:01:41Z"}], \
            "subtotal": "34.50", "delivery": null}
            ]

            """
        #expect(json.output == expected)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2, "the export is valid JSON")
    }

    @Test("The delivery columns: contact, address, method, its price and how to pay; JSON under delivery; the total includes delivery", arguments: StoreBackend.allCases)
    func deliveryColumns(backend: StoreBackend) throws {
        let (location, storage) = try Self.open(backend)
        let session = TestSessions.new()
        let mug = try storage.product("camp-mug")
        let change = try storage.carts.add(productID: mug.id, for: session, at: 1_796_029_300)
        let cart = try #require(try storage.sessions.stored(session)).cart
        let express = try DeliveryStoreTests.method("express")
        var details = DeliveryStoreTests.details(method: "express")
        details.name = "Ada \"The Countess\" Lovelace"
        let delivery = OrderDelivery(details: details, method: express, subtotal: cart.subtotal)
        let placed = try storage.carts.placeOrder(
            OrderPlacement(intent: .review(cartVersion: change.version), shownLines: OrderPlacement.lines(of: cart), delivery: delivery),
            for: TestSessions.stored(session), at: 1_796_029_300
        )
        storage.close()
        let csv = OperatorRun(["orders", "export"], database: location.database)
        let rows = csv.output.split(separator: "\n").map(String.init)
        #expect(rows.count == 2)
        #expect(rows[1].hasPrefix("\(placed.orderID),2026-11-30T09:01:40Z,53.50,1,1,camp-mug,"), "the total is the mug's $34.50 and express's $19.00")
        #expect(rows[1].hasSuffix(
            ",\"Ada \"\"The Countess\"\" Lovelace\",ada@example.com,\"'+1 503 555 0100\",12 Analytical Row,Flat 2,Portland,OR,97201,US,"
                + "express,Express courier,19.00,on-delivery,The courier takes cash or card.,34.50"
        ), "\(rows[1])")

        let json = OperatorRun(["orders", "export", "--format", "json"], database: location.database)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        let order = try #require(parsed?.first)
        #expect(order["total"] as? String == "53.50" && order["subtotal"] as? String == "34.50")
        let exported = try #require(order["delivery"] as? [String: [String: String]])
        #expect(exported["contact"] == ["name": "Ada \"The Countess\" Lovelace", "email": "ada@example.com", "phone": "+1 503 555 0100"])
        #expect(exported["address"]?["postalCode"] == "97201" && exported["address"]?["countryName"] == "United States")
        #expect(exported["method"] == ["code": "express", "name": "Express courier", "price": "19.00"])
        #expect(exported["payment"]?["kind"] == "on-delivery" && exported["payment"]?["instructions"]?.hasPrefix("Pay when the order is delivered.") == true)
    }

    @Test("--since leaves out older orders; a date alone means midnight UTC", arguments: StoreBackend.allCases)
    func since(backend: StoreBackend) throws {
        let (location, storage) = try Self.open(backend)
        _ = try Self.placeOrder(storage, ["camp-mug"], at: 1_795_996_799)  // 2026-11-29T23:59:59Z
        let kept = try Self.placeOrder(storage, ["running-cap"], at: 1_795_996_800)  // 2026-11-30T00:00:00Z
        storage.close()
        for since in ["2026-11-30", "2026-11-30T00:00:00Z"] {
            let run = OperatorRun(["orders", "export", "--since", since], database: location.database)
            let numbers = run.output.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } }
            #expect(numbers == [Substring(String(kept))], "--since \(since): \(run.output)")
        }
        let none = OperatorRun(["orders", "export", "--since", "2027-01-01", "--format", "json"], database: location.database)
        #expect(none.output == "[]\n")
    }

    @Test("--follow prints each new order as it is placed, and stops when asked", arguments: StoreBackend.allCases)
    func follow(backend: StoreBackend) throws {
        let (location, storage) = try Self.open(backend)
        defer { storage.close() }
        let first = try Self.placeOrder(storage, ["camp-mug"], at: 1_796_029_300)
        var second: Int64 = 0
        let text = try Self.following(location.database) {
            second = try Self.placeOrder(storage, ["running-cap", "wool-beanie"], at: 1_796_029_400)
        }
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2, "one JSON object per line: \(text)")
        #expect(lines.first?.hasPrefix("{\"number\": \"\(first)\"") == true)
        #expect(lines.last?.hasPrefix("{\"number\": \"\(second)\", \"placedAt\": \"2026-11-30T09:03:20Z\", \"total\": \"50.00\"") == true, "\(text)")
    }

    @Test("The state columns: each state's time once reached, the carrier, tracking link and reason; JSON keeps the history", arguments: StoreBackend.allCases)
    func stateColumns(backend: StoreBackend) throws {
        let (location, storage) = try Self.open(backend)
        let shipped = try Self.placeOrder(storage, ["camp-mug"], at: 1_796_029_300)
        let cancelled = try Self.placeOrder(storage, ["running-cap"], at: 1_796_029_301)
        storage.close()
        for arguments in [
            [String(shipped), "paid"], [String(shipped), "shipped", "--tracking", "https://track.example/1", "--carrier", "=Carrier"],
            [String(cancelled), "cancelled", "--reason", "+1 asked to cancel"],
        ] {
            #expect(OperatorRun(["orders", "mark"] + arguments, database: location.database).status == 0)
        }
        let csv = OperatorRun(["orders", "export"], database: location.database)
        let rows = csv.output.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        let ship = try #require(rows.first { $0.first == String(shipped) })
        let cancel = try #require(rows.first { $0.first == String(cancelled) })
        func column(_ name: String, of row: [String]) throws -> String { row[try #require(header.firstIndex(of: name))] }
        #expect(try column("state", of: ship) == "shipped")
        #expect(try column("paid_at", of: ship).hasPrefix("20") && column("shipped_at", of: ship) == column("state_at", of: ship))
        #expect(try column("delivered_at", of: ship) == "" && column("cancelled_at", of: ship) == "")
        #expect(try column("tracking_url", of: ship) == "https://track.example/1")
        #expect(try column("carrier", of: ship) == "\"'=Carrier\"", "a spreadsheet never runs the operator's text as a formula")
        #expect(try column("state", of: cancel) == "cancelled" && column("paid_at", of: cancel) == "")
        #expect(try column("cancel_reason", of: cancel) == "\"'+1 asked to cancel\"")

        let json = OperatorRun(["orders", "export", "--format", "json"], database: location.database)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let history = try #require(parsed.first { $0["number"] as? String == String(shipped) }?["history"] as? [[String: Any]])
        #expect(history.map { $0["state"] as? String } == ["placed", "paid", "shipped"])
        #expect(history.last?["trackingURL"] as? String == "https://track.example/1" && history.last?["carrier"] as? String == "=Carrier")
    }

    @Test("--follow prints an order again when it moves", arguments: StoreBackend.allCases)
    func followMoves(backend: StoreBackend) throws {
        let (location, storage) = try Self.open(backend)
        defer { storage.close() }
        let id = try Self.placeOrder(storage, ["camp-mug"], at: 1_796_029_300)
        let text = try Self.following(location.database) {
            #expect(OperatorRun(["orders", "mark", String(id), "paid"], database: location.database).status == 0)
        }
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2, "the order, then the order again: \(text)")
        #expect(lines.first?.contains("\"state\": \"placed\"") == true)
        #expect(lines.last?.hasPrefix("{\"number\": \"\(id)\"") == true && lines.last?.contains("\"state\": \"paid\"") == true, "\(text)")
    }

    @Test("The order number on the shopper's confirmation and on Profile is the one the export prints")
    func numberMatchesProfile() throws {
        let shop = try TestShop()
        let browser = shop.browser()
        let answer = try browser.placeOrder()
        let location = try #require(answer.location)
        let profile = try browser.get(String(location.prefix { $0 != "#" }))
        let confirmation = try #require(profile.html.first { $0["id"] == "order-confirmation" })
        let run = OperatorRun(["orders", "export"], database: shop.directory.path + "/quickcart.sqlite")
        let number = try #require(run.output.split(separator: "\n").dropFirst().first?.split(separator: ",").first.map(String.init))
        #expect(profile.html.text(of: confirmation).contains("Order #\(number) is placed"), "\(profile.html.text(of: confirmation))")
        #expect(ShopTests.CheckoutTests.orders(on: profile).first?.title.contains("#\(number)") == true)
    }
}
