import HTTPTesting
import QuickCart
import SQLite
import Testing

extension ShopTests {
    /// The cart page, its steppers, remove and add.
    @Suite("Cart") struct CartTests {
        // MARK: - The demo cart

        @Test("A new session's cart is the demo cart: badge 3, subtotal $177.00, two rows")
        func demoCart() throws {
            let page = try TestShop(inProcess: true).browser().get("/cart")
            let cart = page.cartSnapshot
            #expect(cart.badge == "3")
            #expect(cart.subtotal == "$177.00")
            #expect(cart.lines == CartSnapshot.demoLines)

            let html = page.html
            for name in [Products.shoes, Products.bottle] {
                for button in ["Decrease quantity of \(name)", "Increase quantity of \(name)", "Remove \(name)"] {
                    #expect(html.button(named: button) != nil, "no button named “\(button)” on the cart page")
                }
            }
            #expect(html.button(named: "Decrease quantity of \(Products.shoes)")?.has("disabled") == true, "decrease must be disabled at quantity 1")
            #expect(html.button(named: "Decrease quantity of \(Products.bottle)")?.has("disabled") == false, "decrease must be enabled at quantity 2")
            #expect(html.button(named: "Increase quantity of \(Products.shoes)")?.has("disabled") == false)
            #expect(html.button(named: "Increase quantity of \(Products.bottle)")?.has("disabled") == false)
            let checkout = try #require(html.button(named: "Checkout"), "no Checkout button")
            #expect(!checkout.has("disabled"), "Checkout must be enabled for a cart with items")
            let subtotal = try #require(html.first { $0.has("data-subtotal") })
            let row = try #require(html.enclosing("tr", of: subtotal))
            #expect(html.text(of: row) == "Subtotal $177.00", "the subtotal row reads “\(html.text(of: row))”")
        }

        @Test("Every form that changes something posts with the session's CSRF token", arguments: ["/", "/search?q=running", "/cart", "/profile"])
        func formsCarryTheToken(path: String) throws {
            let browser = try TestShop(inProcess: true).browser()
            let token = try browser.token()
            let page = try browser.get(path)
            let html = page.html
            let forms = html.elements("form") { $0["method"]?.lowercased() == "post" }
            #expect(!forms.isEmpty, "no post forms on \(path)")
            if path == "/cart" { #expect(forms.count >= 5, "2 rows × (stepper, remove) + checkout; saw \(forms.count)") }
            for form in forms {
                let tokens = html.elements("input", in: form) { $0["name"] == "csrf" }.map { $0["value"] ?? "" }
                #expect(tokens == [token], "the form \(form) on \(path) carries \(tokens)")
            }
            let otherForms = html.elements("form") { $0["method"]?.lowercased() != "post" }
            #expect(otherForms.allSatisfy { $0["method"]?.lowercased() == "get" }, "forms without an explicit method on \(path): \(otherForms)")
        }

        @Test("With --empty-carts the badge is hidden, Checkout disabled, no subtotal, and the empty state links Home")
        func emptyCart() throws {
            let shop = try TestShop(emptyCarts: true, inProcess: true)
            let page = try shop.browser().get("/cart")
            let html = page.html
            let badge = try #require(page.badge)
            #expect(badge.isHidden, "the badge of an empty cart must carry `hidden`: \(badge.element)")
            #expect(html.accessibleName(of: try #require(page.prominentLink)) == "Cart, 0 items")
            #expect(page.cartSnapshot.rows.isEmpty)
            #expect(page.cartSnapshot.subtotal == "missing", "an empty cart has no subtotal to show")
            let checkout = try #require(html.button(named: "Checkout"))
            #expect(checkout.has("disabled"), "Checkout must be disabled when the cart is empty")
            let empty = try #require(html.first { ($0["class"] ?? "").split(separator: " ").contains("empty-state") }, "no empty state")
            #expect(html.text(of: empty).contains("empty"), "the empty state reads “\(html.text(of: empty))”")
            #expect(html.elements("a", in: empty).contains { $0["href"] == "/" }, "the empty state should link back to Home")
            #expect(try shop.browser().get("/").badge?.isHidden == true, "Home's badge of an empty cart")
        }

        // MARK: - Steppers

        @Test("Increase answers 303 back to the cart: badge 4, subtotal $305.00")
        func increase() throws {
            let browser = try TestShop(inProcess: true).browser()
            let shoes = try #require(try browser.cart().row(Products.shoes)?.id)
            let answer = try browser.click("Increase quantity of \(Products.shoes)", on: try browser.get("/cart"))
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(answer.location == "/cart#item-\(shoes)", "back to the row that changed")
            let cart = try browser.cart()
            #expect(cart.badge == "4")
            #expect(cart.subtotal == "$305.00")
            #expect(cart.row(Products.shoes)?.quantity == 2)
            #expect(cart.row(Products.bottle)?.quantity == 2)
        }

        @Test("Decrease answers 303 back to the cart and lowers the count")
        func decrease() throws {
            let browser = try TestShop(inProcess: true).browser()
            let bottle = try #require(try browser.cart().row(Products.bottle)?.id)
            let answer = try browser.click("Decrease quantity of \(Products.bottle)", on: try browser.get("/cart"))
            #expect(answer.status == 303 && answer.location == "/cart#item-\(bottle)", "\(answer.summary)")
            let cart = try browser.cart()
            #expect(cart.lines == ["1 × Trail Running Shoes at $128.00", "1 × Insulated Water Bottle at $24.50"])
            #expect(cart.badge == "2")
            #expect(cart.subtotal == "$152.50")
            let page = try browser.get("/cart")
            #expect(page.html.button(named: "Decrease quantity of \(Products.bottle)")?.has("disabled") == true)
        }

        static let clamped: [(String, Int)] = [
            ("0", 1), ("-5", 1), ("-99999999999999999999999", 1), ("11", 10), ("999", 10),
            ("99999999999999999999999", 10), ("1", 1), ("10", 10), ("7", 7),
            // Plain digits either side of the length read without the general parser.
            ("007", 7), ("000000000000000008", 8), ("0000000000000000009", 9), ("999999999999999999", 10), ("9999999999999999999", 10),
            // Spaces and tabs around the number are trimmed, Unicode's space separators too.
            (" 3 ", 3), ("\t4", 4), ("\u{00A0}5\u{2003}", 5), ("\u{200B}6", 6), ("  -2", 1),
        ]

        @Test("A posted quantity outside 1...10 is clamped", arguments: clamped)
        func quantityIsClamped(posted: String, expected: Int) throws {
            let browser = try TestShop(inProcess: true).browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            let answer = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", posted), ("return_to", "/cart")])
            #expect(answer.status == 303, "quantity “\(posted)”: \(answer.summary)")
            #expect(answer.location == "/cart#item-\(id)")
            let cart = try browser.cart()
            #expect(cart.row(Products.shoes)?.quantity == expected, "quantity “\(posted)” should become \(expected): \(cart)")
            #expect(cart.badge == String(expected + 2))
            #expect(cart.row(Products.bottle)?.quantity == 2)
        }

        @Test("Increase is disabled at 10, decrease enabled")
        func increaseDisabledAtTen() throws {
            let browser = try TestShop(inProcess: true).browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            _ = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "10")])
            let html = try browser.get("/cart").html
            #expect(html.button(named: "Increase quantity of \(Products.shoes)")?.has("disabled") == true, "increase must be disabled at 10")
            #expect(html.button(named: "Decrease quantity of \(Products.shoes)")?.has("disabled") == false)
            #expect(try browser.cart().subtotal == "$1,329.00")
        }

        static let notNumbers: [String?] = ["abc", "", "1.5", "2x", "x2", "0x5", "1e3", "+", "-", "--1", "1 2", "٣", "½", " ", "\u{3000}", "\n6", "6\r",
                                           "1\u{0301}", "5\u{20E3}", "3\u{0338}", "-1\u{0301}", "+9\u{0301}", "10\u{0301}", nil]

        @Test("A quantity that is not a whole number gets 400 with a readable message and changes nothing", arguments: notNumbers)
        func nonNumberQuantityIsRejected(posted: String?) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let before = try browser.cart()
            let id = try #require(before.row(Products.shoes)?.id)
            let form = posted.map { [("quantity", $0)] } ?? []
            let answer = try browser.post("/cart/items/\(id)/quantity", form: form + [("return_to", "/cart")])
            let label = posted.map { "“\($0)”" } ?? "a missing quantity"
            #expect(answer.status == 400, "\(label): expected 400, saw \(answer.summary)")
            #expect(answer.header("Content-Type") == "text/html; charset=utf-8")
            #expect(answer.tabBars.count == 1, "the 400 page should have the shop's layout")
            let message = try #require(answer.html.first("div") { $0["class"] == "error-page" }.map { answer.html.text(of: $0) }, "no message on the 400 page")
            #expect(message.localizedCaseInsensitiveContains("quantity"), "\(label): the message should name the quantity: “\(message)”")
            #expect(try browser.cart() == before, "\(label) changed the cart")
        }

        // MARK: - Remove

        @Test("Remove answers 303 and leaves the other row; removing an absent item is harmless")
        func remove() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let before = try browser.get("/cart")
            let bottle = try #require(before.cartSnapshot.row(Products.bottle)?.id)
            let shoes = try #require(before.cartSnapshot.row(Products.shoes)?.id)
            let answer = try browser.click("Remove \(Products.bottle)", on: before)
            // The bottles' row is gone: back to the row before it, the last one left.
            #expect(answer.status == 303 && answer.location == "/cart#item-\(shoes)", "\(answer.summary)")
            let after = try browser.cart()
            #expect(after.lines == ["1 × Trail Running Shoes at $128.00"])
            #expect(after.badge == "1")
            #expect(after.subtotal == "$128.00")
            let afterPage = try browser.get("/cart")
            #expect(afterPage.html.accessibleName(of: try #require(afterPage.prominentLink)) == "Cart, 1 item")

            for id in [bottle, try shop.productID(named: Products.tent), "9999"] {
                let again = try browser.post("/cart/items/\(id)/remove", form: [("return_to", "/cart")])
                #expect(again.status == 303, "removing absent item \(id): \(again.summary)")
                #expect(try browser.cart() == after, "removing absent item \(id) changed the cart")
            }
            for nonsense in ["abc", "0\(shoes)", "+\(shoes)"] {
                let answer = try browser.post("/cart/items/\(nonsense)/remove")
                #expect(answer.status == 404, "removing item “\(nonsense)”: \(answer.summary)")
            }
            #expect(try browser.cart() == after)
        }

        @Test("Removing an item the cart does not hold writes nothing: 303 back, no notice, no session stored, no new cookie")
        func removingAnAbsentItemWritesNothing() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            _ = try browser.get("/cart")
            let tent = try shop.productID(named: Products.tent)
            let answer = try browser.post("/cart/items/\(tent)/remove", form: [("return_to", "/cart")])
            #expect(answer.status == 303 && answer.location == "/cart", "\(answer.summary)")
            #expect(answer.setCookies.isEmpty, "\(answer.response.headers(named: "Set-Cookie"))")
            let db = try Database(path: shop.directory.path + "/quickcart.sqlite")
            #expect(try db.fetchValue("SELECT count(*) FROM shoppers", as: Int.self) == 0, "removing nothing stored the session")

            // A stored session's cart version stays where it was (a remove leaves it on the
            // shopper, as no line carries it).
            #expect(try browser.post("/cart/items", form: [("product", tent)]).status == 303)
            _ = try browser.post("/cart/items/\(tent)/remove")
            let version = try #require(try db.fetchValue("SELECT cart_version FROM shoppers", as: Int64.self))
            #expect(version > 0)
            let again = try browser.post("/cart/items/\(tent)/remove")
            #expect(again.status == 303 && !again.setCookies.contains { $0.name == "quickcart_notice" }, "\(again.summary)")
            #expect(try db.fetchValue("SELECT cart_version FROM shoppers", as: Int64.self) == version)
        }

        @Test("Removing every item leaves an empty cart with a hidden badge")
        func removeEverything() throws {
            let browser = try TestShop(inProcess: true).browser()
            _ = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            _ = try browser.click("Remove \(Products.shoes)", on: try browser.get("/cart"))
            let page = try browser.get("/cart")
            #expect(page.cartSnapshot.badge == "hidden")
            #expect(page.cartSnapshot.rows.isEmpty)
            #expect(page.html.button(named: "Checkout")?.has("disabled") == true)
        }

        // MARK: - Add

        @Test("Add from Home answers 303 back to Home and adds one")
        func addFromHome() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let answer = try browser.click("Add \(Products.tent) to cart", on: try browser.get("/"))
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(answer.location == "/#product-\(try shop.productID(named: Products.tent))")
            let again = try browser.click("Add \(Products.shoes) to cart", on: try browser.get("/"))
            #expect(again.location == "/#product-\(try shop.productID(named: Products.shoes))")
            let cart = try browser.cart()
            #expect(cart.lines == ["2 × Trail Running Shoes at $128.00", "2 × Insulated Water Bottle at $24.50", "1 × Ultralight Tent at $349.00"])
            #expect(cart.badge == "5")
            #expect(cart.subtotal == "$654.00")
        }

        @Test("Add from Search answers 303 back to the same search, query included", arguments: ["tent", "water bottle", "TRAIL running"])
        func addFromSearch(query: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let results = try browser.search(query)
            let before = try #require(results.badge.flatMap { Int($0.text) })
            let name = try #require(results.productNames.first, "no results for \(query)")

            let answer = try browser.click("Add \(name) to cart", on: results)
            #expect(answer.status == 303, "\(answer.summary)")
            let location = try #require(answer.location)
            #expect(location.hasPrefix("/search?q="), "add from “\(query)” should lead back to the search, not \(location)")
            #expect(location.hasSuffix("#product-\(try shop.productID(named: name))"), "add should lead back to the card, not \(location)")
            let back = try browser.get(String(location.prefix { $0 != "#" })) // a browser keeps the fragment to itself
            #expect(back.status == 200, "\(back.summary)")
            let field = back.html.first("input") { $0["name"] == "q" }
            #expect(field?["value"] == query, "the page after adding should show the search for “\(query)”, saw \(field.map(\.description) ?? "none")")
            #expect(back.badge?.text == String(before + 1))
            #expect(try browser.cart().row(name) != nil)
        }

        @Test("A local return_to comes back as Location exactly, escapes included, anchored at the row", arguments: [
            ("/search?q=Running%20%26%20co%3F", "/search?q=Running%20%26%20co%3F#product-"), ("/search?q=caf%C3%A9+mug", "/search?q=caf%C3%A9+mug#product-"),
            ("/profile", "/profile#product-"), ("/cart#items", "/cart#item-"),
        ])
        func localReturnToIsKept(target: String, expected: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let shoes = try shop.productID(named: Products.shoes)
            let answer = try browser.post("/cart/items", form: [("product", shoes), ("return_to", target)])
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(answer.location == expected + shoes)
        }

        @Test("Items appear in the order they were added, even within one second")
        func itemsKeepTheirOrder() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let names = [Products.tent, "Merino Running Socks", "Running Cap", "Rechargeable Headlamp"]
            let ids = try names.map { try shop.productID(named: $0) }
            for id in ids {
                #expect(try browser.post("/cart/items", form: [("product", id)]).status == 303)
            }
            let cart = try browser.cart()
            #expect(cart.rows.map(\.name) == [Products.shoes, Products.bottle] + names)
        }

        @Test("A large cart: exact subtotal, and the exact count in the Cart link's name and the stream")
        func largeCart() throws {
            let browser = try TestShop(emptyCarts: true).browser()
            var ids: [String] = []
            for category in ["running", "camping", "hydration"] {
                let html = try browser.search(category).html
                ids += html.elements("input") { $0["name"] == "product" }.compactMap { $0["value"] }
            }
            ids = Array(Set(ids)).sorted()
            try #require(ids.count >= 10, "expected at least 10 products in those categories, saw \(ids.count)")
            for id in ids {
                #expect(try browser.post("/cart/items", form: [("product", id)]).status == 303)
                #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "10")]).status == 303)
            }
            let count = ids.count * 10
            let page = try browser.get("/cart")
            let cart = page.cartSnapshot
            #expect(cart.rows.count == ids.count)
            #expect(page.html.accessibleName(of: try #require(page.prominentLink)) == "Cart, \(count) items")
            let cents = try cart.rows.reduce(Int64(0)) { total, row in
                total + (try #require(Self.cents(row.unitPrice), "unreadable price \(row.unitPrice)")) * Int64(row.quantity)
            }
            #expect(cart.subtotal == Money(cents: cents).formatted, "the subtotal should be the exact sum of \(cart.lines)")
            let stream = try browser.eventStream()
            #expect(try stream.next().data == String(count), "the stream should carry the exact count")

            // At 99 (nine lines of 10 and one of 9) the badge still shows the number itself.
            for id in ids.dropFirst(10) {
                #expect(try browser.post("/cart/items/\(id)/remove").status == 303)
            }
            #expect(try browser.post("/cart/items/\(ids[0])/quantity", form: [("quantity", "9")]).status == 303)
            let ninetyNine = try browser.get("/cart")
            #expect(ninetyNine.badge?.text == "99")
            #expect(ninetyNine.html.accessibleName(of: try #require(ninetyNine.prominentLink)) == "Cart, 99 items")
        }

        /// Cents from "$1,234.50".
        static func cents(_ text: String) -> Int64? {
            guard text.hasPrefix("$") else { return nil }
            let digits = text.dropFirst().filter { $0 != "," }
            let parts = digits.split(separator: ".")
            guard parts.count == 2, parts[1].count == 2, let dollars = Int64(parts[0]), let cents = Int64(parts[1]) else { return nil }
            return dollars * 100 + cents
        }

        @Test("Adding is capped at 10")
        func addIsCapped() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let shoes = try shop.productID(named: Products.shoes)
            for _ in 0..<12 {
                #expect(try browser.post("/cart/items", form: [("product", shoes), ("return_to", "/")]).status == 303)
            }
            let cart = try browser.cart()
            #expect(cart.row(Products.shoes)?.quantity == 10)
            #expect(cart.badge == "12")
        }

        static let badProducts: [(String?, Int)] = [("9999", 404), ("0", 404), ("-1", 404), ("99999999999999999999", 404), ("abc", 400), ("", 400), ("1.5", 400), (nil, 400)]

        @Test("Adding an unknown product is 404, a non-number 400; neither changes anything", arguments: badProducts)
        func addRejectsBadProducts(product: String?, status: Int) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let before = try browser.cart()
            let answer = try browser.post("/cart/items", form: (product.map { [("product", $0)] } ?? []) + [("return_to", "/")])
            #expect(answer.status == status, "product \(product.map { "“\($0)”" } ?? "missing"): expected \(status), saw \(answer.summary)")
            #expect(answer.tabBars.count == 1, "the error page should have the shop's layout")
            #expect(try browser.cart() == before)
        }

        static let foreignTargets = [
            "https://evil.example/", "//evil.example", "//evil.example/cart", "/\\evil.example", "\\\\evil.example",
            "http:evil.example", "javascript:alert(1)", " /cart", "evil.example", "/cart\r\nSet-Cookie: x=1",
        ]

        @Test("return_to that is not a local path is never used as Location", arguments: foreignTargets)
        func returnToMustBeLocal(target: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let shoes = try shop.productID(named: Products.shoes)
            let answer = try browser.post("/cart/items", form: [("product", shoes), ("return_to", target)])
            #expect(answer.status == 303, "\(answer.summary)")
            let location = try #require(answer.location)
            #expect(location.hasPrefix("/") && !location.hasPrefix("//") && !location.contains("\\") && !location.contains("evil"),
                    "return_to “\(target)” led to Location “\(location)”")
            #expect(answer.header("Set-Cookie")?.contains("x=1") != true)
            #expect(try browser.cart().badge == "4")
        }
    }
}
