import Foundation
import HTTPTesting
@testable import QuickCart
import Synchronization
import Testing

extension ShopTests {
    /// The API as one more client of a shopper, on both backends: pairing with the web's code,
    /// the devices list and revocation from either side, the live stream both ways, the
    /// catalog, search, checkout and orders.
    @Suite("API: one more client of a shopper")
    struct APIShopperTests {
        /// A browser of a stored shopper (named Dana) showing its join code, and a new app client.
        private static func webCodeAndApp(on shop: TestShop) throws -> (browser: Browser, code: String, app: TestApp) {
            let browser = shop.browser()
            #expect(try browser.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
            let code = try DeviceJoinTests.showCode(browser)
            return (browser, code, try TestApp.create(port: shop.port))
        }

        @Test("An app pairs with the web's code: its own lines merge in, both show one cart, each change reaches the other's stream", arguments: StoreBackend.allCases)
        func pairAndFollow(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let (browser, code, app) = try Self.webCodeAndApp(on: shop)
            #expect(try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3", "quantity": 2]).count == 5)

            let wrong = try app.send("POST", "/api/v1/client/join", json: ["code": code == "BBBB-BBBB" ? "CCCC-CCCC" : "BBBB-BBBB"])
            #expect(wrong.status == 422 && wrong.problem == "invalid-code" && wrong.json["field"] as? String == "code", "\(backend): \(wrong)")
            let showing = try browser.eventStream(path: "/events?texts")
            _ = try showing.next()
            let joined = try app.send("POST", "/api/v1/client/join", json: ["code": code.lowercased()])
            #expect(joined.status == 200 && joined.json["added"] as? Int == 5 && joined.count == 8, "\(backend): \(joined)")
            // The device that showed the code hears which one joined: the app, named as it was stored.
            var heard: [String] = []
            for _ in 0..<4 where !heard.contains(where: { $0.hasPrefix("device-joined") }) { heard.append(try showing.next().description) }
            #expect(heard.contains { $0.hasPrefix("device-joined") && $0.contains("A new device joined: \u{2068}QuickCart app on iPhone\u{2069}") }, "\(backend): \(heard)")
            #expect(try browser.cart().badge == "8", "\(backend): the web does not show the merged cart")

            // Each side hears the other within 100 ms of the answer.
            let webStream = try browser.eventStream()
            #expect(try webStream.next().data == "8")
            let appStream = try app.eventStream()
            #expect(appStream.status == 200 && appStream.contentType == "text/event-stream")
            #expect(try appStream.next().data == "8")
            let changed = try app.send("PATCH", "/api/v1/cart/lines/3", json: ["difference": 1])
            let heardAt = Date()
            let webHeard = try webStream.next()
            #expect(webHeard.event == "badge" && webHeard.data == "9" && webHeard.id == changed.header("ETag")?.trimmingCharacters(in: ["\""]),
                    "\(backend): \(webHeard)")
            #expect(Date().timeIntervalSince(heardAt) < 0.1, "\(backend): the web heard the app's change late")
            #expect(try appStream.next().data == "9")
            #expect(try browser.post("/cart/items", form: [("product", "1")]).status == 303)
            let appHeard = try appStream.next()
            #expect(appHeard.event == "badge" && appHeard.data == "10", "\(backend): \(appHeard)")
            #expect(try app.get("/api/v1/cart").count == 10)

            // The web's devices list names the app; signing it out there ends its token and stream.
            let profile = try browser.get("/profile")
            #expect(profile.text.contains("QuickCart app on iPhone"), "\(backend): the web does not list the app")
            let devices = try app.get("/api/v1/devices").json["devices"] as? [[String: Any]] ?? []
            #expect(devices.count == 2 && devices.filter { $0["current"] as? Bool == true }.count == 1, "\(backend): \(devices)")
            #expect(devices.allSatisfy { ($0["lastSeen"] as? String)?.count == 10 })
            let appHandle = try #require(devices.first { $0["current"] as? Bool == true }?["id"] as? String)
            #expect(profile.text.contains("value=\"\(appHandle)\""), "\(backend): the two lists name the app differently")
            #expect(try browser.post("/profile/devices/sign-out", form: [("device", appHandle)]).status == 303)
            #expect(try app.get("/api/v1/cart").status == 401, "\(backend): a token signed out on the web still works")
            #expect(throws: (any Error).self, "\(backend): the signed-out app's stream stayed open") { _ = try appStream.next() }
            #expect(try browser.cart().badge == "10", "\(backend): signing the app out changed the web's cart")
        }

        @Test("The app signs the web browser out through the API: its cookie starts afresh, its stream ends", arguments: StoreBackend.allCases)
        func signOutWebFromApp(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let (browser, code, app) = try Self.webCodeAndApp(on: shop)
            #expect(try app.send("POST", "/api/v1/client/join", json: ["code": code]).json["added"] as? Int == 0, "starter lines are not the app's own")
            let webStream = try browser.eventStream()
            _ = try webStream.next()
            let devices = try app.get("/api/v1/devices").json["devices"] as? [[String: Any]] ?? []
            let web = try #require(devices.first { $0["current"] as? Bool == false }?["id"] as? String)
            #expect(try app.send("DELETE", "/api/v1/devices/\(web)").status == 204)
            #expect(throws: (any Error).self, "\(backend): the web's stream stayed open") { _ = try webStream.next() }
            #expect(!(try browser.get("/profile").text.contains("Dana")), "\(backend): the signed-out browser still reaches the shopper")
            #expect(try app.send("DELETE", "/api/v1/devices/\(web)").problem == "not-found")
            #expect(try app.get("/api/v1/cart").status == 200)
        }

        @Test("Catalog, one product, search; checkout places one order that the orders list and the web show", arguments: StoreBackend.allCases)
        func catalogAndCheckout(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let anyone = TestApp(port: shop.port)
            let catalog = try anyone.get("/api/v1/catalog").json["products"] as? [[String: Any]] ?? []
            #expect(catalog.count > 2 && catalog.first?["id"] as? String == "1" && catalog.first?["available"] as? Bool == true, "\(catalog.prefix(1))")
            #expect((catalog.first?["price"] as? [String: String])?["amount"] == "128.00")
            #expect(try anyone.get("/api/v1/catalog/3").json["slug"] as? String == "ultralight-tent")
            #expect(try anyone.get("/api/v1/catalog/99").problem == "not-found")
            let found = try anyone.get("/api/v1/search?q=tents")
            #expect((found.json["products"] as? [[String: Any]])?.first?["id"] as? String == "3" && found.json["query"] as? String == "tents", "\(found)")
            #expect(try anyone.get("/api/v1/search?q=" + String(repeating: "a", count: 101)).problem == "invalid-value")
            // Bidirectional controls find nothing: the search is read without them, as the web's is.
            let isolated = try anyone.get("/api/v1/search?q=%E2%80%AEte%E2%81%A6nts%E2%81%A9")
            #expect(isolated.json["query"] as? String == "tents" && (isolated.json["products"] as? [[String: Any]])?.first?["id"] as? String == "3", "\(isolated)")
            // As the document's schema says: no control character anywhere, the ends too (trimming
            // would hide them), and at most 100 code points as sent.
            for refused in ["%0C", "%0A", "%09", "tents%0D", "%C2%85", "%7F", String(repeating: "e%CC%81", count: 51), String(repeating: "a", count: 100) + "%20"] {
                let answer = try anyone.get("/api/v1/search?q=" + refused)
                #expect(answer.problem == "invalid-value" && answer.json["field"] as? String == "q", "q=\(refused.prefix(20)): \(answer)")
            }
            #expect(try anyone.get("/api/v1/search?q=%20tents%20").json["query"] as? String == "tents", "spaces around a search are dropped")

            let app = try TestApp.create(port: shop.port)
            let stream = try app.eventStream()
            #expect(try stream.next().data == "3")
            let none = try app.send("POST", "/api/v1/checkout")
            #expect(none.status == 422 && none.problem == "delivery-required" && none.json["field"] as? String == "delivery", "\(backend): \(none)")
            var wrong = TestApp.delivery
            wrong["country"] = "ZZ"
            let refused = try app.send("POST", "/api/v1/checkout", json: ["delivery": wrong])
            #expect(refused.status == 422 && refused.json["field"] as? String == "delivery.country", "\(backend): \(refused)")
            #expect(try app.send("POST", "/api/v1/checkout", json: ["delivery": ["town": "Oslo"]]).json["field"] as? String == "delivery.town")
            // A code in small letters is the same country: the order keeps it in capitals.
            let placed = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery.merging(["country": "us"]) { $1 }])
            let order = try #require(placed.json["order"] as? [String: Any], "\(backend): \(placed)")
            #expect((order["delivery"] as? [String: Any])?["country"] as? String == "US", "\(backend): \(order)")
            #expect((order["delivery"] as? [String: Any])?["countryName"] as? String == "United States")
            let id = try #require(order["id"] as? String)
            #expect(placed.status == 201 && placed.header("Location") == "/api/v1/orders/\(id)", "\(backend): \(placed)")
            #expect(order["state"] as? String == "placed" && (order["subtotal"] as? [String: String])?["amount"] == "177.00", "\(backend): \(order)")
            #expect((order["total"] as? [String: String])?["amount"] == "196.00", "\(backend): the express courier's 19.00 is in the total")
            let method = order["deliveryMethod"] as? [String: Any]
            #expect(method?["code"] as? String == "express" && method?["payment"] as? String == "on-delivery", "\(backend): \(order)")
            #expect((order["delivery"] as? [String: Any])?["city"] as? String == "Portland")
            #expect((order["placedAt"] as? String)?.hasSuffix("Z") == true)
            let lines = order["lines"] as? [[String: Any]] ?? []
            #expect(lines.map { $0["productId"] as? String } == ["1", "2"] && lines.last?["quantity"] as? Int == 2, "\(lines)")
            #expect(try stream.next().data == "0", "\(backend): the stream did not hear the emptied cart")
            #expect(try app.get("/api/v1/cart").count == 0)
            #expect(try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery]).problem == "empty-cart")
            // Standard shipping serves the US however its code is written: the delivery check
            // passes and the empty cart is what stops it.
            let standard = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery.merging(["country": "us", "method": "standard"]) { $1 }])
            #expect(standard.problem == "empty-cart", "\(backend): \(standard)")
            let methods = try anyone.get("/api/v1/delivery-methods").json["methods"] as? [[String: Any]] ?? []
            #expect(methods.map { $0["code"] as? String } == ["standard", "express", "pickup", "international"], "\(methods)")
            let orders = try app.get("/api/v1/orders").json["orders"] as? [[String: Any]] ?? []
            #expect(orders.count == 1 && orders.first?["id"] as? String == id)
            #expect(try app.get("/api/v1/orders/\(id)").json["id"] as? String == id)
            let other = try TestApp.create(port: shop.port)
            #expect(try other.get("/api/v1/orders/\(id)").problem == "not-found", "\(backend): another shopper read the order")
            #expect(try other.get("/api/v1/orders/x1").problem == "not-found")
        }

        @Test("Idempotency-Key: the same key again (even after the cart changed, even at once from several connections) returns the first order and places none", arguments: StoreBackend.allCases)
        func idempotentCheckout(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let key = [("Idempotency-Key", "checkout-7f3a")]
            let first = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery], headers: key)
            let id = try #require((first.json["order"] as? [String: Any])?["id"] as? String, "\(backend): \(first)")
            #expect(first.status == 201 && first.header("Idempotent-Replayed") == nil)
            #expect(try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"]).count == 1)
            // Blanks after a field's value are no part of it: this is the same key.
            let again = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery], headers: [("Idempotency-Key", "checkout-7f3a \t")])
            #expect(again.status == 200 && again.header("Idempotent-Replayed") == "true" && again.header("Location") == "/api/v1/orders/\(id)", "\(backend): \(again)")
            #expect((again.json["order"] as? [String: Any])?["id"] as? String == id)
            #expect(try app.get("/api/v1/cart").count == 1, "\(backend): a replay emptied the cart")
            var elsewhere = TestApp.delivery
            elsewhere["city"] = "Salem"
            let reused = try app.send("POST", "/api/v1/checkout", json: ["delivery": elsewhere], headers: key)
            #expect(reused.status == 422 && reused.problem == "idempotency-key-reused", "\(backend): \(reused)")

            let port = shop.port, token = app.token
            let ids = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 5) { _ in
                let answer = try? TestApp(port: port, token: token).send(
                    "POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery], headers: [("Idempotency-Key", "second")]
                )
                if let id = (answer?.json["order"] as? [String: Any])?["id"] as? String { ids.withLock { $0.append(id) } }
            }
            let seen = ids.withLock { $0 }
            #expect(seen.count == 5 && Set(seen).count == 1 && seen.first != id, "\(backend): \(seen)")
            #expect((try app.get("/api/v1/orders").json["orders"] as? [Any])?.count == 2, "\(backend): a repeated key placed another order")
            for bad in ["", String(repeating: "k", count: 256), "two words"] {
                let refused = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery], headers: [("Idempotency-Key", bad)])
                #expect(refused.status == 400 && refused.json["field"] as? String == "Idempotency-Key", "\(backend): key “\(bad.prefix(10))”: \(refused)")
            }
        }

        @Test("A key's retry answers its order before anything else is checked: without a body, after its method was withdrawn", arguments: StoreBackend.allCases)
        func replayBeforeChecks(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let key = [("Idempotency-Key", "retry-after-timeout")]
            let first = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery], headers: key)
            #expect(first.status == 201, "\(backend): \(first)")
            let location = try #require(first.header("Location"))
            #expect(try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"]).count == 1)

            // The shopper saved no details, so without the key this would be delivery-required.
            let bare = try app.send("POST", "/api/v1/checkout", headers: key)
            #expect(bare.status == 200 && bare.header("Idempotent-Replayed") == "true" && bare.header("Location") == location, "\(backend): \(bare)")
            let storage = try #require(shop.location).open()
            try storage.deliveryMethods.replaceDeliveryMethods(DeliverySeed.methods.filter { $0.code != "express" })
            storage.close()
            let withdrawn = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery], headers: key)
            #expect(withdrawn.status == 200 && withdrawn.header("Location") == location, "\(backend): the withdrawn method refused the replay: \(withdrawn)")

            // Another request under the key is still refused, whatever is wrong with it.
            var elsewhere = TestApp.delivery
            elsewhere["city"] = "Salem"
            for (label, answer) in [
                ("other details", try app.send("POST", "/api/v1/checkout", json: ["delivery": elsewhere], headers: key)),
                ("a body that is no JSON", try app.send("POST", "/api/v1/checkout", body: Array("{".utf8), headers: key)),
            ] {
                #expect(answer.status == 422 && answer.problem == "idempotency-key-reused", "\(backend), \(label): \(answer)")
            }
            #expect((try app.get("/api/v1/orders").json["orders"] as? [Any])?.count == 1, "\(backend): a replay placed an order")
            #expect(try app.get("/api/v1/cart").count == 1, "\(backend): a replay changed the cart")
        }

        @Test("A checkout without a key whose cart version the web's Place order placed first is 412 stale-cart with the cart now, never a key's problem or replay", arguments: StoreBackend.allCases)
        func keylessCheckoutAfterTheWebsOrder(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let (browser, code, app) = try Self.webCodeAndApp(on: shop)
            #expect(try app.send("POST", "/api/v1/client/join", json: ["code": code]).status == 200)
            let review = try browser.review()
            let version = try #require(app.get("/api/v1/cart").header("ETag").flatMap { Int64($0.trimmingCharacters(in: ["\""])) })
            // The race, without its timing: the app reads version V, the web places V, the app
            // places V. Here the web's order is placed for the version its placing leaves the
            // cart at, so the app's checkout reads the version whose order exists already.
            let placed = try browser.click("Place order", on: review, changing: ["version": String(version + 1)])
            let location = try #require(placed.location, "\(backend): \(placed.summary)")
            let number = try #require(location.split(separator: "=").last?.prefix { $0.isNumber })
            #expect(try app.get("/api/v1/cart").header("ETag") == "\"\(version + 1)\"")

            // Other details than the web's, or none (the web's saved ones): either way the cart
            // this request read was ordered by another, and no key was sent to blame.
            for (label, body) in [("other details", ["delivery": TestApp.delivery]), ("saved details", nil)] as [(String, [String: Any]?)] {
                let lost = try app.send("POST", "/api/v1/checkout", json: body)
                #expect(lost.status == 412 && lost.problem == "stale-cart" && lost.json["field"] == nil, "\(backend), \(label): \(lost)")
                #expect(lost.header("ETag") == "\"\(version + 1)\"" && lost.count == 0, "\(backend), \(label): the cart now is the emptied one: \(lost)")
                #expect((lost.json["detail"] as? String)?.contains("order \(number)") == true, "\(backend), \(label): \(lost)")
                #expect(lost.header("Idempotent-Replayed") == nil)
            }
            #expect((try app.get("/api/v1/orders").json["orders"] as? [Any])?.count == 1, "\(backend): one order, the web's")
        }

        /// A cart answer's lines as checkout's `lines` confirms them.
        static func confirmed(_ cart: [String: Any]) -> [[String: Any]] {
            (cart["lines"] as? [[String: Any]] ?? []).compactMap { line in
                guard let product = line["product"] as? [String: Any], product["available"] as? Bool == true else { return nil }
                return ["productId": product["id"] ?? "", "quantity": line["quantity"] ?? 0, "unitPrice": product["price"] ?? [:]]
            }
        }

        @Test("Checkout with the lines the app showed places only those: a cart or a price that moved since is 412 with the cart now, bad lines are 422", arguments: StoreBackend.allCases)
        func checkoutOfConfirmedLines(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let shown = Self.confirmed(try app.get("/api/v1/cart").json)
            #expect(shown.count == 2, "\(backend): \(shown)")
            let dollar: [String: Any] = ["amount": "1.00", "currency": "USD"]
            let line: [String: Any] = ["productId": "1", "quantity": 1, "unitPrice": dollar]
            for (lines, field) in [
                ([], "lines"), ([line.merging(["productId": "x"]) { $1 }], "lines[0].productId"), ([line.merging(["quantity": 11]) { $1 }], "lines[0].quantity"),
                ([line.merging(["unitPrice": ["amount": "1.5", "currency": "USD"]]) { $1 }], "lines[0].unitPrice.amount"),
                ([line.merging(["unitPrice": ["amount": "1.00", "currency": "EUR"]]) { $1 }], "lines[0].unitPrice.currency"), ([line, line], "lines"),
            ] as [([[String: Any]], String)] {
                let refused = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": lines])
                #expect(refused.status == 422 && refused.problem == "invalid-value" && refused.json["field"] as? String == field, "\(backend), \(field): \(refused)")
            }
            // A member left out is a body the document rules out (400), as anywhere else.
            for (lines, field) in [
                ([line.filter { $0.key != "productId" }], "lines[0].productId"), ([line.filter { $0.key != "quantity" }], "lines[0].quantity"),
                ([line.merging(["unitPrice": ["currency": "USD"]]) { $1 }], "lines[0].unitPrice.amount"),
            ] as [([[String: Any]], String)] {
                let refused = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": lines])
                #expect(refused.status == 400 && refused.problem == "invalid-body" && refused.json["field"] as? String == field, "\(backend), \(field): \(refused)")
            }

            // The shoes cost more now: an import after the app showed the cart.
            let storage = try #require(shop.location).open()
            let entries = storage.liveCatalog.current.catalog.allProducts.map { product in
                CatalogEntry(
                    slug: product.slug, name: product.name, summary: product.summary, category: product.category,
                    price: product.id == 1 ? Money(cents: 15_000) : product.price,
                    icon: product.icon, isFeatured: product.isFeatured, isActive: product.isActive, image: nil
                )
            }
            // The demo's own catalog still, so an app not stored yet keeps its starter lines.
            _ = try storage.catalogStore.importCatalog(entries, origin: storage.liveCatalog.current.origin ?? .demo)
            storage.close()
            let key = [("Idempotency-Key", "confirmed-1")]
            let repriced = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": shown], headers: key)
            #expect(repriced.status == 412 && repriced.problem == "stale-cart", "\(backend): an order at a price the app never showed: \(repriced)")
            let repricedShoes = Self.confirmed(repriced.json["cart"] as? [String: Any] ?? [:]).first { $0["productId"] as? String == "1" }
            #expect((repricedShoes?["unitPrice"] as? [String: String])?["amount"] == "150.00", "\(backend): the cart to show again has the new price: \(repriced)")
            // Another change since: the cart it names is the one to show again.
            #expect(try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"]).status == 200)
            let moved = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": shown], headers: key)
            let now = try #require(moved.json["cart"] as? [String: Any], "\(backend): \(moved)")
            #expect(moved.status == 412 && Self.confirmed(now).contains { $0["productId"] as? String == "3" }, "\(backend): \(moved)")
            #expect((try app.get("/api/v1/orders").json["orders"] as? [Any])?.isEmpty == true, "\(backend): a refused checkout placed an order")

            // Shown again, as the server has the cart now, it is placed; a retry naming other lines is another request.
            let cart = try app.get("/api/v1/cart").json
            let reviewed = Self.confirmed(cart)
            let placed = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": reviewed], headers: key)
            let subtotal = ((placed.json["order"] as? [String: Any])?["subtotal"] as? [String: String])?["amount"]
            #expect(placed.status == 201 && subtotal == (cart["subtotal"] as? [String: String])?["amount"], "\(backend): \(placed)")
            let again = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": reviewed], headers: key)
            #expect(again.status == 200 && again.header("Idempotent-Replayed") == "true", "\(backend): \(again)")
            let other = try app.send("POST", "/api/v1/checkout", json: ["delivery": TestApp.delivery, "lines": shown], headers: key)
            #expect(other.status == 422 && other.problem == "idempotency-key-reused", "\(backend): \(other)")
        }

        @Test("A token read nothing but the cart ends with the idle lifetime since it was issued, as an unstored session does")
        func unstoredTokenExpires() throws {
            let clock = try TestClock()
            let shop = try TestShop { $0.testClockFile = clock.path }
            let reader = try TestApp.create(port: shop.port)
            let writer = try TestApp.create(port: shop.port)
            #expect(try writer.send("POST", "/api/v1/cart/lines", json: ["productId": "3"]).status == 200)
            try clock.set(shop.app.configuration.sessionIdleSeconds - 400)
            #expect(try reader.get("/api/v1/cart").status == 200)
            #expect(try writer.get("/api/v1/cart").status == 200, "a read touches the stored client")
            try clock.set(shop.app.configuration.sessionIdleSeconds + 1)
            #expect(try reader.get("/api/v1/cart").status == 401, "a token that never changed anything outlived its lifetime")
            #expect(try writer.get("/api/v1/cart").quantities["3"] == 1, "a stored client seen lately was ended")
        }
    }
}
