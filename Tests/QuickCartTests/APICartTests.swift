import Foundation
import HTTPTesting
@testable import QuickCart
import Synchronization
import Testing

extension ShopTests {
    /// The native app's API over HTTP, on both backends: clients and tokens, the cart and its
    /// changes through the web's own stores, `ETag`/`If-Match`, and problems for bad requests.
    @Suite("API: clients and the cart")
    struct APICartTests {
        @Test("A new client reads the starter cart with ETag \"0\", and every change answers the cart with its new ETag", arguments: StoreBackend.allCases)
        func cartChanges(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let start = try app.get("/api/v1/cart")
            #expect(start.status == 200 && start.header("ETag") == "\"0\"" && start.count == 3, "\(backend): \(start)")
            #expect(start.header("Content-Type") == "application/json; charset=utf-8")
            let subtotal = start.json["subtotal"] as? [String: String]
            #expect(subtotal == ["amount": "177.00", "currency": "USD"], "\(backend): money is a decimal string with its currency")

            let added = try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3", "quantity": 2])
            #expect(added.status == 200 && added.header("ETag") == "\"1\"" && added.count == 5 && added.quantities["3"] == 2, "\(backend): \(added)")
            let more = try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3", "quantity": 9])
            #expect(more.quantities["3"] == 10, "\(backend): adding clamps at 10: \(more)")
            let set = try app.send("PUT", "/api/v1/cart/lines/3", json: ["quantity": 4])
            #expect(set.quantities["3"] == 4 && set.header("ETag") == "\"3\"", "\(backend): \(set)")
            let down = try app.send("PATCH", "/api/v1/cart/lines/3", json: ["difference": -9])
            #expect(down.quantities["3"] == 1, "\(backend): a difference clamps at 1 as the web's steppers do: \(down)")
            let removed = try app.send("DELETE", "/api/v1/cart/lines/3")
            #expect(removed.status == 200 && removed.quantities["3"] == nil && removed.count == 3, "\(backend): \(removed)")
            let again = try app.send("DELETE", "/api/v1/cart/lines/3")
            #expect(again.status == 200 && again.header("ETag") == removed.header("ETag"), "\(backend): removing a line not there changes nothing")
            #expect(try app.send("PUT", "/api/v1/cart/lines/3", json: ["quantity": 2]).problem == "not-found")
            #expect(try app.get("/api/v1/cart").header("ETag") == removed.header("ETag"))
        }

        @Test("If-Match: the current version passes, a stale one gets 412 with the current cart and its ETag, and changes nothing", arguments: StoreBackend.allCases)
        func ifMatch(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let first = try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"], headers: [("If-Match", "\"0\"")])
            #expect(first.status == 200 && first.header("ETag") == "\"1\"", "\(backend): \(first)")
            // Another device of the shopper changed the cart meanwhile: "1" is stale now.
            #expect(try app.send("PATCH", "/api/v1/cart/lines/3", json: ["difference": 1]).header("ETag") == "\"2\"")
            let stale = try app.send("PUT", "/api/v1/cart/lines/3", json: ["quantity": 7], headers: [("If-Match", "\"1\"")])
            #expect(stale.status == 412 && stale.problem == "stale-cart" && stale.header("ETag") == "\"2\"", "\(backend): \(stale)")
            let cart = try #require(stale.json["cart"] as? [String: Any])
            #expect(cart["version"] as? String == "2" && stale.count == 5, "\(backend): the problem carries the current cart")
            #expect(try app.get("/api/v1/cart").quantities["3"] == 2, "\(backend): a stale change changed something")
            for tag in ["W/\"2\"", "2", "\"abc\""] {
                #expect(try app.send("DELETE", "/api/v1/cart/lines/3", headers: [("If-Match", tag)]).status == 412, "\(backend): If-Match \(tag)")
            }
            // `*` is valid only alone: beside a tag, or in one of several fields, it is malformed.
            for fields in [["*, \"0\""], ["*, \"2\""], ["*,"], ["\"9\"", "*"], ["*", "\"2\""], ["*", "*"]] {
                let answer = try app.send("DELETE", "/api/v1/cart/lines/3", headers: fields.map { ("If-Match", $0) })
                #expect(answer.status == 412 && answer.problem == "stale-cart", "\(backend): If-Match \(fields): \(answer)")
            }
            #expect(try app.send("DELETE", "/api/v1/cart/lines/3", headers: [("If-Match", "\"9\", \"2\"")]).status == 200)
            #expect(try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"], headers: [("If-Match", "*")]).status == 200)
        }

        @Test("A change that changes nothing keeps the ETag, so another device's If-Match of it still passes", arguments: StoreBackend.allCases)
        func unchangingChange(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let other = TestApp(port: shop.port, token: app.token)
            // The starter cart: one of product 1, two of product 2.
            for (label, answer) in [
                ("decrease at 1", try app.send("PATCH", "/api/v1/cart/lines/1", json: ["difference": -1])),
                ("the quantity there", try app.send("PUT", "/api/v1/cart/lines/2", json: ["quantity": 2])),
            ] {
                #expect(answer.status == 200 && answer.header("ETag") == "\"0\"" && answer.quantities == ["1": 1, "2": 2], "\(backend), \(label): \(answer)")
            }
            let changed = try other.send("PUT", "/api/v1/cart/lines/1", json: ["quantity": 3], headers: [("If-Match", "\"0\"")])
            #expect(changed.status == 200 && changed.header("ETag") == "\"1\"", "\(backend): \(changed)")
        }

        @Test("Concurrent If-Match changes of one version: exactly one wins, the others get 412", arguments: StoreBackend.allCases)
        func ifMatchRace(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            #expect(try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"]).status == 200)
            let statuses = Mutex<[Int]>([])
            let port = shop.port, token = app.token
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                let status = (try? TestApp(port: port, token: token).send("PATCH", "/api/v1/cart/lines/3", json: ["difference": 1], headers: [("If-Match", "\"1\"")]).status) ?? 0
                statuses.withLock { $0.append(status) }
            }
            let seen = statuses.withLock { $0 }
            #expect(seen.filter { $0 == 200 }.count == 1 && seen.filter { $0 == 412 }.count == 5, "\(backend): \(seen)")
            #expect(try app.get("/api/v1/cart").quantities["3"] == 2)
        }

        @Test("Bad requests each get their own problem and change nothing", arguments: StoreBackend.allCases)
        func badRequests(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let cases: [(String, TestApp.Answer, Int, String, String?)] = [
                ("bad JSON", try app.send("POST", "/api/v1/cart/lines", body: Array(#"{"productId": "3""#.utf8)), 400, "invalid-json", nil),
                ("not UTF-8", try app.send("POST", "/api/v1/cart/lines", body: [0x7B, 0xFF, 0x7D]), 400, "invalid-json", nil),
                ("unknown field", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3", "colour": "red"]), 400, "invalid-body", "colour"),
                ("number as a string", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3", "quantity": "2"]), 400, "invalid-body", "quantity"),
                ("id as a number", try app.send("POST", "/api/v1/cart/lines", json: ["productId": 3]), 400, "invalid-body", "productId"),
                ("a fraction", try app.send("PUT", "/api/v1/cart/lines/1", body: Array(#"{"quantity": 2.5}"#.utf8)), 400, "invalid-body", "quantity"),
                ("leading zero", try app.send("PUT", "/api/v1/cart/lines/1", body: Array(#"{"quantity": 01}"#.utf8)), 400, "invalid-json", nil),
                ("twice", try app.send("PUT", "/api/v1/cart/lines/1", body: Array(#"{"quantity": 2, "quantity": 3}"#.utf8)), 400, "invalid-body", "quantity"),
                ("an array", try app.send("PUT", "/api/v1/cart/lines/1", body: Array("[2]".utf8)), 400, "invalid-body", nil),
                ("missing field", try app.send("PUT", "/api/v1/cart/lines/1", json: [:]), 400, "invalid-body", "quantity"),
                ("no body", try app.send("PUT", "/api/v1/cart/lines/1"), 400, "invalid-json", nil),
                ("out of range", try app.send("PUT", "/api/v1/cart/lines/1", json: ["quantity": 11]), 422, "invalid-value", "quantity"),
                ("zero difference", try app.send("PATCH", "/api/v1/cart/lines/1", json: ["difference": 0]), 422, "invalid-value", "difference"),
                ("unknown product", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "999"]), 422, "invalid-value", "productId"),
                ("form body", try app.send("POST", "/api/v1/cart/lines", body: Array("productId=3".utf8), contentType: "application/x-www-form-urlencoded"), 415, "unsupported-media-type", nil),
                ("no content type", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"], contentType: nil), 415, "unsupported-media-type", nil),
                ("two content types", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"], contentType: "text/plain", headers: [("Content-Type", "application/json")]), 415, "unsupported-media-type", nil),
                ("another charset", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"], contentType: "application/json; charset=iso-8859-1"), 415, "unsupported-media-type", nil),
                ("oversize", try app.send("POST", "/api/v1/cart/lines", body: Array(("{\"productId\": \"" + String(repeating: "3", count: 17_000) + "\"}").utf8)), 413, "body-too-large", nil),
                ("far oversize", try app.send("POST", "/api/v1/cart/lines", body: [UInt8](repeating: 0x20, count: 70_000)), 413, "body-too-large", nil),
                ("not a product path", try app.send("PUT", "/api/v1/cart/lines/abc", json: ["quantity": 2]), 404, "not-found", nil),
                // Ids are the strings the API gives: "01" is no alias of "1".
                ("a leading zero in the path", try app.send("PUT", "/api/v1/cart/lines/01", json: ["quantity": 2]), 404, "not-found", nil),
                ("a leading zero in a product's path", try app.get("/api/v1/catalog/01"), 404, "not-found", nil),
                ("a leading zero in the body", try app.send("POST", "/api/v1/cart/lines", json: ["productId": "03"]), 422, "invalid-value", "productId"),
                ("an escaped slash", try app.get("/api/v1/cart%2Flines"), 404, "not-found", nil),
                ("unknown address", try app.get("/api/v1/nothing"), 404, "not-found", nil),
                ("escape", try app.get("/api/v1/catalog/%ZZ"), 400, "bad-request", nil),
                ("overlong UTF-8 in the path", try app.get("/api/v1/catalog/%C0%80"), 400, "bad-request", nil),
                ("a surrogate in the path", try app.send("PUT", "/api/v1/cart/lines/%ED%A0%80", json: ["quantity": 2]), 400, "bad-request", nil),
                ("a stray byte in the path", try app.get("/api/v1/cart%80"), 400, "bad-request", nil),
                ("a stray byte in the query", try app.get("/api/v1/search?q=%80"), 400, "bad-request", nil),
                ("wrong method", try app.send("POST", "/api/v1/cart"), 405, "method-not-allowed", nil),
            ]
            for (name, answer, status, problem, field) in cases {
                #expect(answer.status == status && answer.problem == problem, "\(backend), \(name): \(answer)")
                #expect(answer.json["field"] as? String == field, "\(backend), \(name): field")
                #expect(answer.json["status"] as? Int == status && (answer.json["detail"] as? String)?.isEmpty == false, "\(backend), \(name)")
            }
            #expect(cases.last?.1.header("Allow") == "GET, HEAD")
            let cart = try app.get("/api/v1/cart")
            #expect(cart.header("ETag") == "\"0\"" && cart.count == 3, "\(backend): a refused request changed the cart: \(cart)")
            for contentType in ["application/json; charset=UTF-8", "application/json;charset=\"utf-8\""] {
                let taken = try app.send("POST", "/api/v1/cart/lines", json: ["productId": "3"], contentType: contentType)
                #expect(taken.status == 200, "\(backend), \(contentType): \(taken)")
            }
        }

        @Test("A missing, malformed, forged or signed-out token gets 401 with WWW-Authenticate; no cookie, no CORS", arguments: StoreBackend.allCases)
        func tokens(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let app = try TestApp.create(port: shop.port)
            let token = try #require(app.token)
            #expect(token.utf8.count >= 43 && token.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            let ok = try app.get("/api/v1/cart", headers: [("Origin", "https://evil.example")])
            #expect(ok.status == 200 && ok.header("Set-Cookie") == nil && ok.header("Access-Control-Allow-Origin") == nil, "\(ok)")
            for padded in ["Bearer \(token) ", "Bearer \(token)\t", " Bearer \(token) \t "] {
                let answer = try TestApp(port: shop.port).get("/api/v1/cart", headers: [("Authorization", padded)])
                #expect(answer.status == 200, "\(backend): blanks around the field's value are no part of the token: \(answer)")
            }
            let forged = String(token.dropLast()) + (token.last == "A" ? "B" : "A")
            for (name, header) in [("none", nil), ("basic", "Basic dXNlcjpwYXNz"), ("forged", "Bearer " + forged), ("empty", "Bearer "), ("garbage", "Bearer !!!")] {
                let bare = TestApp(port: shop.port)
                let answer = try bare.send("GET", "/api/v1/cart", headers: header.map { [("Authorization", $0)] } ?? [])
                #expect(answer.status == 401 && answer.problem == "unauthorized" && answer.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(backend), \(name): \(answer)")
            }
            // A cookie of the web is no token.
            let browser = shop.browser()
            _ = try browser.get("/")
            let cookieOnly = try TestApp(port: shop.port).get("/api/v1/cart", headers: [("Cookie", "quickcart_session=\(browser.sessionCookie ?? "")")])
            #expect(cookieOnly.status == 401)
            // Signed out through the API itself: the token is spent at once.
            let devices = try app.get("/api/v1/devices")
            let own = try #require((devices.json["devices"] as? [[String: Any]])?.first { $0["current"] as? Bool == true }?["id"] as? String)
            #expect(try app.send("DELETE", "/api/v1/devices/\(own)").status == 204)
            #expect(try app.get("/api/v1/cart").status == 401, "\(backend): a signed-out token still works")
        }

        @Test("A device name is checked as the document states it: code points as sent, no control or bidi control characters")
        func deviceNames() throws {
            let shop = try TestShop()
            let refused = [
                "x\n", "\tx", "x\u{85}", String(repeating: "e\u{301}", count: 31), String(repeating: "a", count: 60) + " ",
                "iPhone\u{202E}\u{2066}x", "\u{200E}iPad", "Pixel\u{061C}",
            ]
            for device in refused {
                let answer = try TestApp(port: shop.port).send("POST", "/api/v1/clients", json: ["device": device])
                #expect(answer.status == 422 && answer.problem == "invalid-value" && answer.json["field"] as? String == "device", "“\(device.debugDescription)”: \(answer)")
            }
            // Zero-width joiners are part of some names; 60 code points are allowed.
            for device in ["\u{0915}\u{094D}\u{200D}\u{0937}", String(repeating: "é", count: 60), " iPad "] {
                let answer = try TestApp(port: shop.port).send("POST", "/api/v1/clients", json: ["device": device])
                #expect(answer.status == 201, "“\(device.debugDescription)”: \(answer)")
            }
            let padded = try TestApp(port: shop.port).send("POST", "/api/v1/clients", json: ["device": " iPad "])
            #expect((padded.json["client"] as? [String: Any])?["device"] as? String == "QuickCart app on iPad", "spaces around the name are dropped")
        }

        @Test("Creating clients is limited per address: the 21st in ten minutes gets 429 with Retry-After")
        func creationLimit() throws {
            let shop = try TestShop()
            for index in 0..<20 {
                #expect(try TestApp(port: shop.port).send("POST", "/api/v1/clients").status == 201, "client \(index)")
            }
            let refused = try TestApp(port: shop.port).send("POST", "/api/v1/clients", json: ["device": "iPad"])
            #expect(refused.status == 429 && refused.problem == "rate-limited" && Int(refused.header("Retry-After") ?? "") ?? 0 > 0, "\(refused)")
            #expect(AddressAttempts.key("2001:db8:1:2:3:4:5:6") == AddressAttempts.key("2001:db8:1:2::9"), "an IPv6 address counts by its /64")
            let long = try TestApp(port: shop.port).send("POST", "/api/v1/clients", json: ["device": String(repeating: "x", count: 61)])
            #expect(long.status == 422 && long.json["field"] as? String == "device", "a bad name is refused before the limit: \(long)")
        }
    }
}
