import HTTPTesting
import Testing

extension ShopTests {
    /// Checkout turns the cart into an order on Profile and empties the cart.
    @Suite("Checkout") struct CheckoutTests {
        /// The orders on a Profile page: each one's text, newest first as shown.
        static func orders(on page: Page) -> [(title: String, lines: [String], total: String)] {
            let html = page.html
            return html.elements("li") { ($0["class"] ?? "").split(separator: " ").contains("order") }.map { order in
                let title = html.first("h3", in: order).map { html.text(of: $0) } ?? ""
                let list = html.first("ul", in: order)
                let lines = list.map { html.elements("li", in: $0).map { html.text(of: $0) } } ?? []
                let total = html.first("p", in: order) { ($0["class"] ?? "").contains("total") }.map { html.text(of: $0) } ?? ""
                return (title, lines, total)
            }
        }

        @Test("Checkout leads to the order on Profile with its lines, total and a confirmation, and empties the cart")
        func checkout() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let answer = try browser.click("Checkout", on: try browser.get("/cart"))
            #expect(answer.status == 303, "\(answer.summary)")
            let location = try #require(answer.location)
            try #require(location.hasPrefix("/profile?order="), "checkout should lead to the order on Profile, not \(location)")
            let orderID = String(location.dropFirst("/profile?order=".count).prefix { $0.isNumber })
            #expect(!orderID.isEmpty, "no order id in \(location)")

            let profile = try browser.get(String(location.prefix { $0 != "#" }))
            try #require(profile.status == 200, "\(profile.summary)")
            let confirmation = try #require(profile.html.first { $0["id"] == "order-confirmation" || $0["role"] == "status" && profile.html.text(of: $0).contains("Order") },
                                            "no confirmation on \(profile.summary)")
            let confirmationText = profile.html.text(of: confirmation)
            #expect(confirmationText.contains("#\(orderID)") && confirmationText.contains("$177.00"), "the confirmation reads “\(confirmationText)”")

            let orders = Self.orders(on: profile)
            try #require(orders.count == 1, "expected one order on Profile, saw \(orders.count)")
            #expect(orders[0].title.contains("#\(orderID)"), "order title “\(orders[0].title)”")
            #expect(orders[0].lines == ["1 × Trail Running Shoes $128.00", "2 × Insulated Water Bottle $49.00"])
            #expect(orders[0].total.contains("$177.00"), "order total “\(orders[0].total)”")

            let cart = try browser.get("/cart")
            #expect(cart.cartSnapshot.badge == "hidden", "the badge after checkout: \(cart.cartSnapshot)")
            #expect(cart.cartSnapshot.rows.isEmpty)
            #expect(cart.html.button(named: "Checkout")?.has("disabled") == true, "Checkout must be disabled after checkout")
            #expect(profile.badge?.isHidden == true, "the Profile page's badge after checkout")
        }

        @Test("Checking out an empty cart is 400 and creates no order")
        func emptyCheckoutIsRejected() throws {
            let shop = try TestShop(emptyCarts: true, inProcess: true)
            let browser = shop.browser()
            let answer = try browser.post("/cart/checkout", form: [("version", "0"), ("lines", "")])
            #expect(answer.status == 400, "\(answer.summary)")
            #expect(answer.text.contains("Your cart is empty"), "\(answer.summary)")
            #expect(answer.tabBars.count == 1)
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty)

            // And once more after a real checkout: still one order.
            let demo = try TestShop(inProcess: true)
            let shopper = demo.browser()
            #expect(try shopper.placeOrder().status == 303)
            let again = try shopper.post("/cart/checkout", form: [("version", "1"), ("lines", "")])
            #expect(again.status == 400, "a second checkout: \(again.summary)")
            #expect(Self.orders(on: try shopper.get("/profile")).count == 1)
        }

        @Test("Two tabs (or a double click) pressing Checkout on one page place one order; both land on its confirmation")
        func oneOrderPerIntent() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let page = try browser.get("/cart")
            let first = try browser.click("Checkout", on: page)
            let second = try browser.click("Checkout", on: page)
            #expect(first.status == 303 && second.status == 303, "\(first.summary) / \(second.summary)")
            let location = try #require(first.location)
            #expect(second.location == location, "the second press should land on the first's order")
            #expect(Self.orders(on: try browser.get("/profile")).count == 1)
            // A new cart is a new intent: its order is another one.
            #expect(try browser.post("/cart/items", form: [("product", try shop.productID(named: Products.tent))]).status == 303)
            let next = try browser.placeOrder()
            #expect(next.status == 303 && next.location != location, "\(next.summary)")
            #expect(Self.orders(on: try browser.get("/profile")).count == 2)
        }

        @Test("Lines or prices other than those the page showed place nothing: the cart says what changed")
        func changedSinceShown() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let page = try browser.get("/cart")
            // Another tab raises the bottles after this page was shown.
            #expect(try browser.post("/cart/items", form: [("product", try shop.productID(named: Products.bottle))]).status == 303)
            let refused = try browser.click("Checkout", on: page)
            #expect(refused.status == 303 && refused.location == "/cart", "\(refused.summary)")
            let cart = try NoticeTests.next(browser, after: refused, path: "/cart")
            #expect(NoticeTests.notice(on: cart)?.contains("You now have 3 of Insulated Water Bottle (it was 2).") == true, "\(cart.summary)")
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty, "an order was placed at lines never shown")
            #expect(try browser.placeOrder().status == 303, "checked out again from the cart as it is now")
            #expect(Self.orders(on: try browser.get("/profile")).first?.total.contains("$201.50") == true)
        }

        @Test("Orders are listed newest first, each with its own lines")
        func ordersNewestFirst() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let first = try browser.placeOrder()
            #expect(first.status == 303)
            #expect(try browser.post("/cart/items", form: [("product", try shop.productID(named: Products.tent))]).status == 303)
            #expect(try browser.post("/cart/items", form: [("product", try shop.productID(named: Products.tent))]).status == 303)
            let second = try browser.placeOrder()
            #expect(second.status == 303)
            let orders = Self.orders(on: try browser.get("/profile"))
            try #require(orders.count == 2)
            #expect(orders[0].lines == ["2 × Ultralight Tent $698.00"], "newest first: \(orders.map(\.lines))")
            #expect(orders[0].total.contains("$698.00"))
            #expect(orders[1].lines == ["1 × Trail Running Shoes $128.00", "2 × Insulated Water Bottle $49.00"])
            #expect(orders[1].total.contains("$177.00"))
        }

        @Test("An order number of another session shows no confirmation")
        func confirmationOnlyForOwnOrders() throws {
            let shop = try TestShop(inProcess: true)
            let alice = shop.browser(), bob = shop.browser()
            let location = try #require(try alice.placeOrder().location)
            let page = try bob.get(String(location.prefix { $0 != "#" }))
            #expect(page.status == 200)
            #expect(!page.text.contains("$177.00"), "B sees A's order")
            #expect(Self.orders(on: page).isEmpty)
        }
    }

    /// The display name on Profile.
    @Suite("Profile") struct ProfileTests {
        static func displayName(on page: Page) -> String? {
            page.html.first("input") { $0["name"] == "display_name" }?["value"]
        }

        @Test("Changing the display name answers 303 to Profile, which shows it")
        func rename() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            #expect(Self.displayName(on: try browser.get("/profile")) == "Guest")
            let answer = try browser.post("/profile/name", form: [("display_name", "  Ada Lovelace ")])
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(answer.location == "/profile")
            let page = try browser.get("/profile")
            #expect(Self.displayName(on: page) == "Ada Lovelace")
            // The name shows once, in its field: no "Name" row repeats it right above.
            #expect(!page.html.elements("dd").contains { page.html.text(of: $0) == "Ada Lovelace" }, "the name is repeated above its field")
            let forty = String(repeating: "é", count: 40)
            #expect(try browser.post("/profile/name", form: [("display_name", forty)]).status == 303, "40 characters are allowed")
            #expect(Self.displayName(on: try browser.get("/profile")) == forty)
        }

        static let rejectedNames = ["", "   ", String(repeating: "x", count: 41), String(repeating: "é", count: 41), "tab\there", "line\nbreak"]

        @Test("An empty, too long or control-character name is 400 and changes nothing", arguments: rejectedNames)
        func badNameIsRejected(name: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            #expect(try browser.post("/profile/name", form: [("display_name", "Grace")]).status == 303)
            let answer = try browser.post("/profile/name", form: [("display_name", name)])
            #expect(answer.status == 400, "name “\(name)”: expected 400, saw \(answer.summary)")
            let message = answer.html.first("div") { $0["class"] == "error-page" }.map { answer.html.text(of: $0) } ?? ""
            #expect(message.localizedCaseInsensitiveContains("name"), "the message should be about the name: “\(message)”")
            #expect(Self.displayName(on: try browser.get("/profile")) == "Grace")
        }

        @Test("A missing display_name field is 400")
        func missingNameIsRejected() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            #expect(try browser.post("/profile/name").status == 400)
            #expect(Self.displayName(on: try browser.get("/profile")) == "Guest")
        }

        @Test("Markup in a name renders escaped")
        func nameIsEscaped() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let name = "\"><script>alert(1)</script>"
            #expect(try browser.post("/profile/name", form: [("display_name", name)]).status == 303)
            let page = try browser.get("/profile")
            #expect(!page.text.contains("\"><script>"), "the name came back raw")
            #expect(!page.text.contains("<script>alert"), "the name came back raw")
            #expect(page.text.contains("&quot;&gt;&lt;script&gt;"), "the name should appear escaped")
            #expect(Self.displayName(on: page) == name)
        }
    }

    /// Forms need the session's CSRF token and must come from this site.
    @Suite("CSRF") struct CSRFTests {
        /// Every form action, with fields that would change something if accepted.
        static let actions: [(String, [(String, String)])] = [
            ("/cart/items", [("product", "3")]),
            ("/cart/items/1/quantity", [("quantity", "5")]),
            ("/cart/items/2/remove", []),
            ("/cart/checkout", []),
            ("/profile/name", [("display_name", "Mallory")]),
        ]

        /// What the session's pages show, to compare before and after.
        static func state(of browser: Browser) throws -> String {
            let cart = try browser.cart()
            let profile = try browser.get("/profile")
            return "\(cart) name \(ProfileTests.displayName(on: profile) ?? "?") orders \(CheckoutTests.orders(on: profile).count)"
        }

        @Test("A post without a token is 403 and changes nothing", arguments: actions.map(\.0))
        func missingToken(path: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let before = try Self.state(of: browser)
            let fields = try #require(Self.actions.first { $0.0 == path }).1
            let answer = try browser.post(path, form: fields, csrf: .none)
            #expect(answer.status == 403, "POST \(path) without a token: \(answer.summary)")
            #expect(answer.tabBars.count == 1, "the 403 page should have the shop's layout")
            #expect(try Self.state(of: browser) == before)
        }

        @Test("Another session's token, a wrong or empty one, is 403", arguments: ["other", "wrong", "empty", "twice"])
        func wrongToken(kind: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let before = try Self.state(of: browser)
            let other = try shop.browser().token()
            let own = try browser.token()
            #expect(other != own, "two sessions have the same token")
            let token = switch kind {
            case "other": other
            case "wrong": String(repeating: "0", count: own.count)
            case "twice": own + own
            default: ""
            }
            for (path, fields) in Self.actions {
                let answer = try browser.post(path, form: fields, csrf: .value(token))
                #expect(answer.status == 403, "POST \(path) with \(kind) token: \(answer.summary)")
            }
            #expect(try Self.state(of: browser) == before)
        }

        @Test("A valid token from a cross-site Origin or Referer is 403", arguments: [
            ("Origin", "https://evil.example"), ("Origin", "null"), ("Referer", "https://evil.example/cart"),
            ("Origin", "http://127.0.0.1.evil.example"),
        ])
        func crossSiteOrigin(header: String, value: String) throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let before = try Self.state(of: browser)
            for (path, fields) in Self.actions {
                let answer = try browser.post(path, form: fields, headers: [(header, value)])
                #expect(answer.status == 403, "POST \(path) with \(header): \(value): \(answer.summary)")
            }
            #expect(try Self.state(of: browser) == before)
        }

        @Test("The same post with the token from this site goes through")
        func validTokenPasses() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let answer = try browser.post("/cart/items", form: [("product", "3")], headers: [("Origin", "http://127.0.0.1")])
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(try browser.cart().badge == "4")
        }
    }
}
