import Foundation
import HTTPTesting
import Testing

extension ShopTests {
    /// Unknown paths, wrong methods, oversized bodies and malformed input: each answered
    /// properly, none changing anything.
    @Suite("Errors") struct ErrorTests {
        @Test("An unknown path is a 404 page in the shop's layout", arguments: ["/nowhere", "/cart/items/1", "/static/nope.css", "/CART", "/cart/"])
        func unknownPath(path: String) throws {
            let browser = try TestShop().browser()
            _ = try browser.get("/")
            let page = try browser.get(path)
            #expect(page.status == 404, "GET \(path): \(page.summary)")
            guard !path.hasPrefix("/static/") else { return }
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.tabBars.count == 1, "the 404 page should carry the tab bar")
            #expect(page.tabLinks.map { $0["href"] ?? "" } == ["/", "/search", "/cart", "/profile"])
            #expect(page.tabLinks.allSatisfy { $0["aria-current"] == nil }, "no tab is current on a 404 page")
            #expect(page.badge?.text == "3", "the 404 page's badge should show the session's count")
            let main = try #require(page.html.first("main"), "the 404 page has no <main>")
            // Home, or back to the tab the address is under.
            let back = path.hasPrefix("/cart/") ? "/cart" : "/"
            #expect(page.html.elements("a", in: main).contains { $0["href"] == back }, "the 404 page should lead to \(back)")
        }

        @Test("An error page is a browser's first page: it gives the new session's cookie its forms' token belongs to", arguments: [
            "/nowhere", "/search?q=%zz", "/orders/1",
        ])
        func errorPageGivesANewSession(path: String) throws {
            let browser = try TestShop().browser()
            let page = try browser.get(path)
            #expect(page.status >= 400 && page.sessionCookie != nil, "GET \(path) with no cookie: \(page.summary)")
            let layout = try browser.click("Show sidebar", on: page)
            #expect(layout.status == 303, "the layout button of the error page: \(layout.summary)")
        }

        static let wrongMethods: [(String, String, String)] = [
            ("DELETE", "/cart", "GET, HEAD"), ("POST", "/cart", "GET, HEAD"), ("PUT", "/cart/items", "POST"),
            ("GET", "/checkout/place", "POST"), ("GET", "/cart/items", "POST"), ("GET", "/profile/name", "POST"),
            ("DELETE", "/cart/items/1/remove", "POST"), ("PATCH", "/cart/items/1/quantity", "POST"), ("POST", "/events", "GET, HEAD"),
        ]

        @Test("A wrong method is 405 with Allow, and changes nothing", arguments: wrongMethods)
        func wrongMethod(method: String, path: String, allow: String) throws {
            let browser = try TestShop().browser()
            let before = try browser.cart()
            let token = try browser.token()
            let body = Array("csrf=\(token)&quantity=5&product=3&display_name=X".utf8)
            let answer = try browser.request(method, path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
            #expect(answer.status == 405, "\(method) \(path): \(answer.summary)")
            #expect(answer.header("Allow") == allow, "\(method) \(path): Allow is \(answer.header("Allow") ?? "missing")")
            #expect(answer.tabBars.count == 1, "the 405 page should carry the tab bar")
            #expect(try browser.cart() == before)
        }

        /// How a request says where its body ends.
        enum Framing: String, CaseIterable, CustomTestStringConvertible {
            /// A `Content-Length` header up front.
            case length
            /// `Transfer-Encoding: chunked`, in 4 KiB chunks.
            case chunked

            var testDescription: String { rawValue }
        }

        @Test("A body over 64 KiB is 413 and changes nothing, framed by its length or in chunks", arguments: Framing.allCases)
        func bodyTooLarge(framing: Framing) throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let before = try browser.cart()
            let token = try browser.token()
            let cookie = try #require(browser.sessionCookie)
            // A complete, valid form that would add a tent, padded past the limit.
            let form = "csrf=\(token)&product=3&return_to=%2Fcart&padding="
            let head = "POST /cart/items HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: quickcart_session=\(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            let client = try shop.client()
            switch framing {
            case .length:
                let body = Array((form + String(repeating: "x", count: 70 * 1024)).utf8)
                try client.send(head + "Content-Length: \(body.count)\r\n\r\n")
                // The answer may come before the body is read; send it anyway, as a browser would.
                try? client.send(body)
            case .chunked:
                var request = head + "Transfer-Encoding: chunked\r\n\r\n" + String(form.utf8.count, radix: 16) + "\r\n" + form + "\r\n"
                for _ in 0..<20 { request += "1000\r\n" + String(repeating: "x", count: 4096) + "\r\n" }
                try? client.send(request + "0\r\n\r\n")
            }
            let answer = try client.readResponse()
            #expect(answer.status == 413, "a body over the limit, \(framing): \(answer)")
            #expect(try browser.cart() == before, "an oversized post changed the cart")
            // A body just under the limit is fine.
            let small = try browser.post("/cart/items", form: [("product", "3"), ("padding", String(repeating: "y", count: 60 * 1024))])
            #expect(small.status == 303, "a 60 KiB body: \(small.summary)")
        }

        @Test("Malformed percent-encoding is 400 and changes nothing", arguments: ["/search?q=%zz", "/search?q=%", "/search?q=%ff", "/cart?x=%zz", "/searc%zz"])
        func malformedEscapeInTheAddress(target: String) throws {
            let browser = try TestShop().browser()
            _ = try browser.search("tent")
            let before = try browser.get("/search").text
            let answer = try browser.get(target)
            #expect(answer.status == 400, "GET \(target): \(answer.summary)")
            #expect(try browser.get("/search").text == before, "a rejected search was recorded")
        }

        @Test(
            "Malformed percent-encoding in a form is 400 and changes nothing, also at the end of a value",
            arguments: ["quantity=%zz", "quantity=%zz7", "quantity=%ff%fe", "quantity=5&x=%ff", "quantity=5%", "quantity=6%2", "quantity=5&x=%zz"]
        )
        func malformedEscapeInAForm(fields: String) throws {
            let browser = try TestShop().browser()
            let before = try browser.cart()
            let id = try #require(before.row(Products.shoes)?.id)
            let body = Array("csrf=\(try browser.token())&\(fields)".utf8)
            let answer = try browser.request("POST", "/cart/items/\(id)/quantity", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
            // libmicrohttpd's post processor decodes leniently ("5%" arrives as "5"), so
            // MicroHTTP checks the raw body's escapes itself.
            #expect(answer.status == 400, "form \(fields): \(answer.summary)")
            #expect(try browser.cart() == before)
        }

        @Test("An item id that is not a positive number is 404", arguments: ["abc", "0", "-1", "1.5", "99999999999999999999"])
        func badItemID(id: String) throws {
            let browser = try TestShop().browser()
            let before = try browser.cart()
            let answer = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "5")])
            #expect(answer.status == 404, "item \(id): \(answer.summary)")
            #expect(try browser.cart() == before)
        }

        @Test("Searches and names over their limits are 400")
        func overlongInput() throws {
            let browser = try TestShop().browser()
            let search = try browser.search(String(repeating: "a", count: 101))
            #expect(search.status == 400, "\(search.summary)")
            #expect(try browser.search(String(repeating: "a", count: 100)).status == 200)
        }
    }

    /// Carts live in SQLite and survive a restart.
    @Suite("Persistence") struct PersistenceTests {
        @Test("After a restart on the same database, the same cookie sees the same cart, name and orders")
        func cartSurvivesARestart() throws {
            let first = try TestShop()
            let browser = first.browser()
            let tent = try first.productID(named: Products.tent)
            #expect(try browser.placeOrder().status == 303)
            #expect(try browser.post("/cart/items", form: [("product", tent)]).status == 303)
            #expect(try browser.add(Products.bottle).status == 303)
            #expect(try browser.post("/cart/items/\(tent)/quantity", form: [("quantity", "4")]).status == 303)
            #expect(try browser.post("/profile/name", form: [("display_name", "Persistent Pat")]).status == 303)
            let cart = try browser.cart()
            #expect(cart.lines == ["4 × Ultralight Tent at $349.00", "1 × Insulated Water Bottle at $24.50"])
            let cookie = try #require(browser.sessionCookie)
            // A session that only looked around keeps its (signed, unstored) cookie too.
            let (_, visitorCookie) = try first.visitor()
            let directory = first.directory
            first.stop()

            let second = try TestShop(directory: directory)
            let again = second.browser(cookie: cookie)
            let page = try again.get("/cart")
            #expect(page.sessionCookie == nil, "the restarted shop replaced a valid session cookie")
            #expect(page.cartSnapshot == cart, "after the restart: \(page.cartSnapshot), before: \(cart)")
            let profile = try again.get("/profile")
            #expect(ProfileTests.displayName(on: profile) == "Persistent Pat")
            #expect(CheckoutTests.orders(on: profile).count == 1)

            let returning = try second.browser(cookie: visitorCookie).get("/cart")
            #expect(returning.sessionCookie == nil, "the restarted shop replaced an unstored session's cookie")
            #expect(returning.cartSnapshot.lines == CartSnapshot.demoLines)
        }
    }
}
