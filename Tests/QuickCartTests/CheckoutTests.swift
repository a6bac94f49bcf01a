import Foundation
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

        @Test("Checkout leads to the order on Profile with its lines, total, delivery and how to pay, and empties the cart")
        func checkout() throws {
            let browser = try TestShop(inProcess: true).browser()
            let cart = try browser.get("/cart")
            let button = try #require(cart.html.button(named: "Checkout"), "no Checkout button")
            #expect(cart.html.enclosing("form", of: button)?["action"] == "/checkout" && !button.has("disabled"))
            let answer = try browser.placeOrder()
            #expect(answer.status == 303, "\(answer.summary)")
            let location = try #require(answer.location)
            try #require(location.hasPrefix("/profile?order="), "checkout should lead to the order on Profile, not \(location)")
            let orderID = String(location.dropFirst("/profile?order=".count).prefix { $0.isNumber })
            #expect(!orderID.isEmpty, "no order id in \(location)")

            let profile = try browser.get(String(location.prefix { $0 != "#" }))
            try #require(profile.status == 200, "\(profile.summary)")
            let confirmation = try #require(profile.html.first { $0["id"] == "order-confirmation" }, "no confirmation on \(profile.summary)")
            let confirmationText = profile.html.text(of: confirmation)
            #expect(confirmationText.contains("#\(orderID)") && confirmationText.contains("$177.00"), "the confirmation reads “\(confirmationText)”")
            #expect(confirmationText.contains("Awaiting payment: nothing has been charged."), "\(confirmationText)")
            #expect(confirmationText.contains("Pay by bank transfer once the order is placed, with the order number as the reference."))
            #expect(confirmationText.contains("Standard shipping to Ada Lovelace, 12 Analytical Row, Portland, OR, 97201, United States."))

            let orders = Self.orders(on: profile)
            try #require(orders.count == 1, "expected one order on Profile, saw \(orders.count)")
            #expect(orders[0].title.contains("#\(orderID)"), "order title “\(orders[0].title)”")
            #expect(orders[0].lines == ["1 × Trail Running Shoes $128.00", "2 × Insulated Water Bottle $49.00"])
            #expect(orders[0].total.contains("$177.00"), "free standard shipping from $100.00: “\(orders[0].total)”")

            let order = try browser.get("/orders/\(orderID)")
            for text in ["12 Analytical Row", "Portland, OR, 97201", "United States", "ada@example.com", "+1 503 555 0100", "Standard shipping: Free"] {
                #expect(order.text.contains(text), "the order's page lacks “\(text)”")
            }

            let after = try browser.get("/cart")
            #expect(after.cartSnapshot.badge == "hidden", "the badge after checkout: \(after.cartSnapshot)")
            #expect(after.cartSnapshot.rows.isEmpty)
            #expect(after.html.button(named: "Checkout")?.has("disabled") == true, "Checkout must be disabled after checkout")
            #expect(profile.badge?.isHidden == true, "the Profile page's badge after checkout")
        }

        @Test("Review shows the lines, subtotal, delivery, total and how to pay, and says nothing is charged")
        func review() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            #expect(try browser.post("/cart/items/\(try shop.productID(named: Products.shoes))/remove").status == 303)
            let saved = try browser.postDelivery(["method": "express"])
            #expect(saved.status == 303 && saved.location == "/checkout/review", "\(saved.summary)")
            let review = try browser.get("/checkout/review")
            #expect(review.html.first("h1").map { review.html.text(of: $0) } == "Review your order")
            for text in [
                "2 × Insulated Water Bottle", "$24.50 each", "Subtotal (2 items) $49.00", "Delivery: Express courier $19.00", "Total $68.00",
                "Nothing is charged now.", "Pay when the order is delivered. The courier takes cash or card.", "12 Analytical Row",
            ] {
                let words = review.html.first("main").map { review.html.text(of: $0) } ?? ""
                #expect(words.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(text), "Review lacks “\(text)” in \(words)")
            }
            #expect(review.html.button(named: "Place order") != nil)
            #expect(!review.text.lowercased().contains("card number"), "no card form")
            // Standard shipping costs $6.95 below $100.00.
            #expect(try browser.review().text.contains("$55.95"))
        }

        @Test("An order collected in the store asks no address: Review, the confirmation, the order and Profile say who collects it, and none of them an address")
        func collectedInTheStore() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let form = try browser.get("/checkout")
            #expect(form.html.first("fieldset") { ($0["class"] ?? "").contains("delivery-form__address") } != nil, "\(form.text)")
            #expect(form.html.first("input") { $0["value"] == "pickup" }?.has("data-collected") == true)
            #expect(form.html.first("input") { $0["value"] == "standard" }?.has("data-collected") == false)
            #expect(form.text.contains("You collect the order in the store: no address needed."))

            // A parcel still needs its address.
            let parcel = try browser.postDelivery(["address_line1": "", "city": "", "postal_code": "", "country": ""])
            #expect(parcel.status == 400 && parcel.text.contains("Enter the street address."), "\(parcel.summary)")
            // Collected: none is asked, and one typed before choosing it is not where the order goes.
            let noAddress = try browser.postDelivery(["address_line1": "", "city": "", "postal_code": "", "country": "", "method": "pickup"])
            #expect(noAddress.status == 303 && noAddress.location == "/checkout/review", "\(noAddress.summary)")
            let saved = try browser.get("/profile").text
            #expect(saved.contains("<p class=\"review__address\">Ada Lovelace</p>") && !saved.contains("<br><br>"), "Profile's saved details without an address")
            #expect(try browser.postDelivery(["country": "NO", "method": "pickup"]).status == 303, "someone from abroad may collect in the store")
            let review = try browser.get("/checkout/review")
            let words = review.html.first("main").map { review.html.text(of: $0) }?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
            #expect(words.contains("Ada Lovelace Collected in the store") && words.contains("Pay in the store when you collect the order."), "\(words)")
            #expect(!words.contains("12 Analytical Row") && !words.contains("Norway"), "\(words)")

            let placed = try browser.click("Place order", on: review)
            let location = try #require(placed.location)
            let profile = try browser.get(String(location.prefix { $0 != "#" }))
            let confirmation = profile.html.text(of: try #require(profile.html.first { $0["id"] == "order-confirmation" }))
            #expect(confirmation.contains("Pick up in store, for Ada Lovelace.") && !confirmation.contains("Analytical"), "\(confirmation)")
            #expect(Self.orders(on: profile).count == 1 && profile.text.contains("Pick up in store, for Ada Lovelace<"), "the order list")
            let number = String(location.dropFirst("/profile?order=".count).prefix { $0.isNumber })
            let order = try browser.get("/orders/\(number)")
            #expect(order.text.contains("Collected in the store") && !order.text.contains("Analytical"), "\(order.text)")
            // Its "shipped" is the shop saying it is ready, its "delivered" the collection.
            for (state, news) in [("shipped", "The order is ready for you to collect in the store."), ("delivered", "You collected the order.")] {
                #expect(OperatorRun(["orders", "mark", number, state], database: shop.directory.path + "/quickcart.sqlite").status == 0)
                let confirmation = try browser.get("/profile?order=\(number)")
                #expect(confirmation.text.contains(news) && !confirmation.text.contains("on its way") && !confirmation.text.contains("has arrived"), "\(state)")
            }
            // The details saved for next time keep what was typed, address and all.
            #expect(try browser.get("/profile/delivery").html.first("input") { $0["name"] == "address_line1" }?["value"] == "12 Analytical Row")
            // Profile's card says that address is not where a pick-up goes.
            let card = try browser.get("/profile").text
            #expect(card.contains("For orders sent to you:</p>\n<address class=\"review__address\">Ada Lovelace<br>12 Analytical Row"), "\(card)")
        }

        @Test("The Delivery step checks every field on the server: a message each, aria-invalid, aria-describedby, focus on the first; what was typed stays; nothing is saved")
        func validation() throws {
            let browser = try TestShop(inProcess: true).browser()
            let form = try browser.get("/checkout")
            // Where a method delivers, by country name whatever order the shop's file gave.
            #expect(form.text.contains("Delivers to Canada and United States."), "standard ships to US CA")
            let inputs = form.html.elements("input") { $0["type"] != "hidden" && $0["type"] != "radio" }
            let tokens = Dictionary(inputs.compactMap { input in input["name"].map { ($0, (input["autocomplete"] ?? "", input["type"] ?? "")) } }, uniquingKeysWith: { first, _ in first })
            #expect(tokens["name"]! == ("name", "text") && tokens["email"]! == ("email", "email") && tokens["phone"]! == ("tel", "tel"))
            #expect(tokens["address_line1"]!.0 == "address-line1" && tokens["address_line2"]!.0 == "address-line2" && tokens["city"]!.0 == "address-level2")
            #expect(tokens["postal_code"]!.0 == "postal-code" && tokens["region"]!.0 == "address-level1")
            #expect(form.html.first("select")?["autocomplete"] == "country")
            for input in inputs { #expect(form.html.first("label") { $0["for"] == input["id"] } != nil, "\(input) has no label") }

            let empty = try browser.postDelivery(Dictionary(uniqueKeysWithValues: Browser.deliveryFields.map { ($0.0, "") }))
            #expect(empty.status == 400, "\(empty.summary)")
            let required = ["name": "Enter your full name.", "email": "Enter your email address.", "address_line1": "Enter the street address.",
                            "city": "Enter the town or city.", "postal_code": "Enter the postal code.", "country": "Choose the country."]
            for (field, message) in required {
                let control = try #require(empty.html.first { ($0.name == "input" || $0.name == "select") && $0["name"] == field }, "\(field)")
                #expect(control["aria-invalid"] == "true", "\(field) is not marked invalid")
                let describedBy = control["aria-describedby"]?.split(separator: " ").map(String.init) ?? []
                let error = describedBy.compactMap { id in empty.html.first { $0["id"] == id } }.first { ($0["class"] ?? "").contains("field__error") }
                #expect(error.map { empty.html.text(of: $0) } == "Error: " + message, "\(field): \(describedBy)")
            }
            #expect(empty.text.contains("Choose how your order is delivered."))
            #expect(empty.html.first("input") { $0["name"] == "phone" }?["aria-invalid"] == nil, "the phone is optional")
            let focused = empty.html.elements { $0["autofocus"] != nil }
            #expect(focused.count == 1 && focused.first?["name"] == "name", "focus goes to the first wrong field only: \(focused)")

            // One field wrong: only it is marked, focused, and everything typed comes back.
            let one = try browser.postDelivery(["email": "ada.example.com", "phone": "call me"])
            #expect(one.status == 400)
            let email = try #require(one.html.first("input") { $0["name"] == "email" })
            #expect(email["aria-invalid"] == "true" && email["autofocus"] != nil && email["value"] == "ada.example.com")
            #expect(one.text.contains("Enter an email address like name@example.com."))
            #expect(one.text.contains("Enter a phone number with digits, spaces and + - ( ) only, or leave it empty."))
            #expect(one.html.first("input") { $0["name"] == "name" }?["aria-invalid"] == nil)
            for (field, value) in Browser.deliveryFields where !["email", "phone", "country", "method"].contains(field) {
                #expect(one.html.first("input") { $0["name"] == field }?["value"] == value, "\(field) was not kept")
            }
            #expect(one.html.first("option") { $0["value"] == "US" }?.has("selected") == true)
            #expect(one.html.first("input") { $0["value"] == "standard" }?.has("checked") == true)
            #expect(try browser.get("/checkout").html.first("input") { $0["name"] == "name" }?["value"] == "", "a refused form saved details")

            // A method that does not deliver to the country says so.
            let abroad = try browser.postDelivery(["country": "NO"])
            #expect(abroad.status == 400 && abroad.text.contains("Standard shipping does not deliver to Norway. Choose another way."))
            // Each radio names the error first, then its own text: focus lands on a radio, and
            // many screen readers do not read the group's description from inside it.
            let radios = abroad.html.elements("input") { $0["type"] == "radio" }
            #expect(radios.count > 1)
            for radio in radios {
                let describedBy = radio["aria-describedby"]?.split(separator: " ").map(String.init) ?? []
                let texts = describedBy.map { id in abroad.html.first { $0["id"] == id }.map { abroad.html.text(of: $0) } ?? "" }
                #expect(radio["aria-invalid"] == "true" && texts.count == 2, "\(radio)")
                #expect(texts.first == "Error: Standard shipping does not deliver to Norway. Choose another way.", "\(radio): \(texts)")
                #expect(describedBy.last == "method-\(radio["value"] ?? "")-about", "\(radio)")
            }
            #expect(abroad.html.first("fieldset") { $0["aria-describedby"] != nil } == nil, "the error is not said twice")
            // Focus goes to the chosen method, the one that is wrong, not to the first.
            let express = try browser.postDelivery(["country": "NO", "method": "express"])
            #expect(express.html.elements("input") { $0["type"] == "radio" && $0.has("autofocus") }.map { $0["value"] } == ["express"], "\(express.summary)")
            #expect(express.html.first { $0["id"] == "delivery-method" }?["value"] == "express", "the error summary's link leads to another method")
            #expect(try browser.get("/checkout").html.elements("input") { $0["type"] == "radio" }.allSatisfy { $0["aria-describedby"]?.contains("error") == false })
            #expect(try browser.postDelivery(["country": "ZZ", "method": "international"]).text.contains("We do not deliver to that country."))
            #expect(try browser.postDelivery(["country": "NO", "method": "international"]).status == 303)
            // A code in small letters is the same country, to the method's check and on Review.
            #expect(try browser.postDelivery(["country": "us"]).status == 303)
            #expect(try browser.get("/checkout/review").text.contains("United States"))
        }

        @Test("Names written with zero-width joiners are names; bidi overrides, zero-width spaces, line separators, text that shows as nothing and digits with marks are refused")
        func invisibleCharacters() throws {
            let browser = try TestShop(inProcess: true).browser()
            for name in ["\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}", "\u{915}\u{94D}\u{200D}\u{937}", "Ann \u{1F469}\u{200D}\u{1F467}"] {
                let saved = try browser.postDelivery(["name": name])
                #expect(saved.status == 303, "\(name.unicodeScalars.map { String($0.value, radix: 16) }): \(saved.summary)")
            }
            for name in ["Ann\u{202E}elk", "Ann\u{200B}Lee", "Ann\u{2066}Lee", "Ann\u{2028}Lee", "Ann\u{2029}Lee"] {
                #expect(try browser.postDelivery(["name": name]).text.contains("Remove the line breaks or other invisible characters."))
            }
            // Text that shows as nothing is no name: fillers, the Braille blank, marks or a joiner alone.
            for name in ["\u{3164}", "\u{2800}", "\u{200D}", "\u{301}\u{301}", "\u{FE0F}", "\u{115F}\u{1160}"] {
                let refused = try browser.postDelivery(["name": name])
                #expect(refused.status == 400 && refused.text.contains("this shows as nothing"), "\(name.unicodeScalars.map { String($0.value, radix: 16) }): \(refused.summary)")
            }
            let marked = try browser.postDelivery(["phone": "1\u{338}2\u{338}3\u{338}4\u{338}5\u{338}"])
            #expect(marked.status == 400 && marked.text.contains("Enter a phone number with digits"), "\(marked.summary)")
        }

        @Test("A phone number too short says so; digits of other scripts and full-width forms are the same number, and postal code, in ASCII")
        func phoneNumbers() throws {
            let browser = try TestShop(inProcess: true).browser()
            for short in ["+1 555", "555", "(0) 12-3"] {
                let answer = try browser.postDelivery(["phone": short])
                #expect(answer.status == 400 && answer.text.contains("Enter the whole phone number, at least 5 digits, or leave it empty."), "\(short): \(answer.summary)")
                #expect(answer.html.first("input") { $0["name"] == "phone" }?["value"] == short, "\(short) is kept as typed")
            }
            #expect(try browser.postDelivery(["phone": "call 555"]).text.contains("Enter a phone number with digits, spaces and + - ( ) only, or leave it empty."))
            for (typed, stored) in [("\u{FF0B}\u{FF11}\u{3000}\u{FF08}\u{FF15}\u{FF10}\u{FF13}\u{FF09}\u{FF15}\u{FF15}\u{FF15}\u{FF0D}\u{FF10}\u{FF11}", "+1 (503)555-01"),
                                    ("\u{660}\u{661}\u{662}\u{663}\u{664}\u{665}\u{666}", "0123456"), ("\u{967}\u{968}\u{969}\u{96A}\u{96B}", "12345")] {
                let answer = try browser.postDelivery(["phone": typed])
                #expect(answer.status == 303, "\(stored): \(answer.summary)")
                #expect(try browser.get("/checkout").html.first("input") { $0["name"] == "phone" }?["value"] == stored)
            }
            #expect(try browser.postDelivery(["phone": "\u{B2}\u{B3}\u{B9}\u{B2}\u{B3}"]).status == 400, "superscripts are not digits of a number")
            // So is a postal code: full-width letters and digits, an ideographic space, other scripts' digits.
            for (typed, stored) in [("\u{FF33}\u{FF37}\u{FF11}\u{FF21}\u{3000}\u{FF11}\u{FF21}\u{FF21}", "SW1A 1AA"), ("\u{FF19}\u{FF17}\u{FF12}\u{FF10}\u{FF11}", "97201"),
                                    ("\u{669}\u{667}\u{662}\u{660}\u{661}", "97201")] {
                #expect(try browser.postDelivery(["postal_code": typed]).status == 303, "\(stored)")
                #expect(try browser.get("/checkout").html.first("input") { $0["name"] == "postal_code" }?["value"] == stored)
            }
        }

        @Test("The details are offered next time, on every device of the shopper; Profile edits and deletes them")
        func savedDetails() throws {
            let browser = try TestShop(inProcess: true).browser()
            #expect(try browser.placeOrder().status == 303)
            #expect(try browser.add(Products.tent).status == 303)
            let next = try browser.get("/checkout")
            #expect(next.text.contains("We filled in the details you used last time."))
            for (field, value) in Browser.deliveryFields where !["country", "method", "address_line2"].contains(field) {
                #expect(next.html.first("input") { $0["name"] == field }?["value"] == value, "\(field) was not offered")
            }
            let profile = try browser.get("/profile")
            #expect(profile.text.contains("12 Analytical Row") && profile.text.contains("Delivery: Standard shipping"))
            #expect(try browser.post("/profile/delivery", form: Browser.deliveryFields.map { ($0.0, $0.0 == "city" ? "Salem" : $0.1) }).status == 303)
            #expect(try browser.get("/checkout").html.first("input") { $0["name"] == "city" }?["value"] == "Salem")
            let refused = try browser.post("/profile/delivery", form: Browser.deliveryFields.map { ($0.0, $0.0 == "postal_code" ? "97<201>" : $0.1) })
            #expect(refused.status == 400 && refused.text.contains("Enter a postal code with letters, digits, spaces and hyphens only."))
            #expect(try browser.post("/profile/delivery/delete").status == 303)
            #expect(!(try browser.get("/profile").text.contains("Salem")))
            let blank = try browser.get("/checkout")
            #expect(blank.html.first("input") { $0["name"] == "city" }?["value"] == "" && !blank.text.contains("We filled in"))
        }

        @Test("Checking out an empty cart places nothing: Delivery says so, Place order without details leads there")
        func emptyCheckoutIsRejected() throws {
            let browser = try TestShop(emptyCarts: true, inProcess: true).browser()
            #expect(try browser.get("/checkout").text.contains("Your cart has nothing to check out."))
            let answer = try browser.post("/checkout/place", form: [("version", "0"), ("lines", ""), ("delivery", "0"), ("details", "0")])
            #expect(answer.status == 303 && answer.location == "/checkout", "\(answer.summary)")
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty)
            #expect(try browser.get("/checkout/review").location == "/cart", "Review of an empty cart leads to the cart")

            // And once more after a real checkout: a new intent on the emptied cart is refused.
            let demo = try TestShop(inProcess: true)
            let shopper = demo.browser()
            #expect(try shopper.placeOrder().status == 303)
            let tent = try demo.productID(named: Products.tent)
            #expect(try shopper.post("/cart/items", form: [("product", tent)]).status == 303)
            let details = try #require(try shopper.get("/checkout/review").html.first("input") { $0["name"] == "details" }?["value"])
            #expect(try shopper.post("/cart/items/\(tent)/remove").status == 303)
            // Standard shipping of nothing would cost $6.95.
            let again = try shopper.post("/checkout/place", form: [("version", "99"), ("lines", ""), ("delivery", "695"), ("details", details), ("payment", "bank-transfer")])
            #expect(again.status == 400 && again.text.contains("Your cart is empty"), "a second checkout: \(again.summary)")
            #expect(Self.orders(on: try shopper.get("/profile")).count == 1)
        }

        @Test("Two tabs (or a double click) pressing Place order on one Review place one order; both land on its confirmation")
        func oneOrderPerIntent() throws {
            let browser = try TestShop(inProcess: true).browser()
            let review = try browser.review()
            let first = try browser.click("Place order", on: review)
            let second = try browser.click("Place order", on: review)
            #expect(first.status == 303 && second.status == 303, "\(first.summary) / \(second.summary)")
            let location = try #require(first.location)
            #expect(second.location == location, "the second press should land on the first's order")
            #expect(Self.orders(on: try browser.get("/profile")).count == 1)
            // A new cart is a new intent: its order is another one.
            #expect(try browser.add(Products.tent).status == 303)
            let next = try browser.placeOrder()
            #expect(next.status == 303 && next.location != location, "\(next.summary)")
            #expect(Self.orders(on: try browser.get("/profile")).count == 2)
        }

        @Test("Two tabs that each went through Delivery land on the one order, whichever presses first, also after the details changed")
        func twoTabsThroughDelivery() throws {
            for firstPress in [0, 1] {
                let browser = try TestShop(inProcess: true).browser()
                // Each tab continues from Delivery with the same details: one Review stays as current as the other.
                let tabs = [try browser.review(), try browser.review()]
                let placed = try browser.click("Place order", on: tabs[firstPress])
                let location = try #require(placed.location, "\(placed.summary)")
                #expect(location.hasPrefix("/profile?order="), "\(placed.summary)")
                let other = try browser.click("Place order", on: tabs[1 - firstPress])
                #expect(other.status == 303 && other.location == location, "tab \(1 - firstPress) after tab \(firstPress): \(other.summary)")
                // Details changed after the order was placed: a retry of its Review still finds it.
                #expect(try browser.postDelivery(["method": "express"]).status == 303)
                #expect(try browser.click("Place order", on: tabs[0]).location == location)
                #expect(Self.orders(on: try browser.get("/profile")).count == 1)
            }
        }

        @Test("A Review from before the cart was ordered at another version places nothing and says the cart was emptied, without an error page")
        func reviewOfAnEmptiedCart() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let stale = try browser.review()
            // Another tab adds a tent and takes it out again: the same lines at a later version.
            #expect(try browser.add(Products.tent).status == 303)
            let tent = try shop.productID(named: Products.tent)
            #expect(try browser.post("/cart/items/\(tent)/remove", form: [("return_to", "/cart")]).status == 303)
            // That tab orders with other delivery details: the emptied cart is still what this one hears of.
            #expect(try browser.postDelivery(["method": "express"]).status == 303)
            #expect(try browser.click("Place order", on: try browser.get("/checkout/review")).status == 303)
            let refused = try browser.click("Place order", on: stale)
            #expect(refused.status == 303 && refused.location == "/cart", "\(refused.summary)")
            let cart = try NoticeTests.next(browser, after: refused, path: "/cart")
            #expect(NoticeTests.notice(on: cart)?.contains("Your cart was emptied since that Review page was shown, so nothing was ordered from it.") == true, "\(cart.summary)")
            #expect(Self.orders(on: try browser.get("/profile")).count == 1)
        }

        @Test("Lines, prices or delivery other than those Review showed place nothing: Review again, saying what changed")
        func changedSinceShown() throws {
            let browser = try TestShop(inProcess: true).browser()
            let review = try browser.review()
            // Another tab raises the bottles after Review was shown.
            #expect(try browser.add(Products.bottle).status == 303)
            let refused = try browser.click("Place order", on: review)
            #expect(refused.status == 303 && refused.location == "/checkout/review?changed", "\(refused.summary)")
            let again = try NoticeTests.next(browser, after: refused, path: "/checkout/review?changed")
            #expect(NoticeTests.notice(on: again)?.contains("You now have 3 of Insulated Water Bottle (it was 2).") == true, "\(again.summary)")
            #expect(again.text.contains("Something changed since you last saw your order, so nothing was ordered yet."))
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty, "an order was placed at lines never shown")
            #expect(try browser.click("Place order", on: again).status == 303, "placed once reviewed again")
            #expect(Self.orders(on: try browser.get("/profile")).first?.total.contains("$201.50") == true)

            // Details changed in another tab since Review: Review again.
            #expect(try browser.add(Products.tent).status == 303)
            let stale = try browser.review()
            #expect(try browser.postDelivery(["method": "express"]).status == 303)
            let moved = try browser.click("Place order", on: stale)
            #expect(moved.location == "/checkout/review?changed")
            #expect(NoticeTests.notice(on: try NoticeTests.next(browser, after: moved, path: "/checkout/review"))?.contains("Your delivery details changed") == true)
        }

        @Test("A method that changed how it is paid since Review places nothing: a pick-up now sent asks for the address, a parcel now collected is reviewed again")
        func methodChangedKind() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            func importMethods(standard: String, pickup: String) throws {
                let path = shop.directory.path + "/delivery-\(UUID().uuidString).csv"
                try Data("""
                    code,name,price,countries,free_from,payment,payment_details
                    standard,Standard shipping,6.95,US CA,100,\(standard),
                    pickup,Pick up in store,0,US,,\(pickup),
                    """.utf8).write(to: URL(fileURLWithPath: path))
                let run = OperatorRun(["delivery", "import", path], database: shop.directory.path + "/quickcart.sqlite")
                #expect(run.status == 0, "\(run.report)")
            }
            // A Place order form that does not say how the order is paid (a Review page of an
            // earlier release) places nothing: Review again.
            #expect(try browser.postDelivery().status == 303)
            let review = try browser.get("/checkout/review")
            let fields: [(String, String)] = ["csrf", "version", "lines", "delivery", "details"].compactMap { (name: String) -> (String, String)? in
                guard let input = review.html.first("input", where: { $0["name"] == name }) else { return nil }
                return (name, input["value"] ?? "")
            }
            #expect(fields.count == 5 && review.text.contains("name=\"payment\" value=\"bank-transfer\""), "\(fields)")
            let unsaid = try browser.post("/checkout/place", form: fields)
            #expect(unsaid.location == "/checkout/review?changed", "\(unsaid.summary)")
            #expect(NoticeTests.notice(on: try NoticeTests.next(browser, after: unsaid, path: "/checkout/review?changed")) == "Check your order below, then place it.")
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty)

            // Reviewed as a pick-up without an address; the shop then sends "pickup" by post.
            #expect(try browser.postDelivery(["address_line1": "", "city": "", "postal_code": "", "country": "", "method": "pickup"]).status == 303)
            let collected = try browser.get("/checkout/review")
            try importMethods(standard: "bank-transfer", pickup: "bank-transfer")
            let refused = try browser.click("Place order", on: collected)
            #expect(refused.status == 303 && refused.location == "/checkout?check", "the Delivery step, to give the address: \(refused.summary)")
            #expect(try browser.get("/checkout?check").text.contains("Enter the street address."))
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty, "an order to be sent was placed without an address")

            // Reviewed as a parcel to an address; the shop then makes "standard" a pick-up.
            #expect(try browser.postDelivery().status == 303)
            let sent = try browser.get("/checkout/review")
            #expect(sent.text.contains("12 Analytical Row"))
            try importMethods(standard: "in-store", pickup: "in-store")
            let moved = try browser.click("Place order", on: sent)
            #expect(moved.location == "/checkout/review?changed", "\(moved.summary)")
            let again = try NoticeTests.next(browser, after: moved, path: "/checkout/review?changed")
            #expect(NoticeTests.notice(on: again) == "How your order is delivered or paid changed since you saw it. Check it below.", "\(again.summary)")
            #expect(again.text.contains("Collected in the store") && !again.text.contains("12 Analytical Row"))
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty, "a parcel was placed as collected without a new Review")
            #expect(try browser.click("Place order", on: again).status == 303, "placed once reviewed again")
            #expect(Self.orders(on: try browser.get("/profile")).count == 1)
        }

        @Test("An import this instance has not taken yet refuses Place order: the notice names the new price, Review shows it, then it places")
        func importBeforeThisInstanceTookIt() throws {
            // In process, the shop does not check for imports by itself: only the refusal takes it.
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let review = try browser.review()
            #expect(review.text.contains("$128.00"))
            try LiveCatalogTests.importCatalog(LiveCatalogTests.catalog, into: shop)
            let refused = try browser.click("Place order", on: review)
            #expect(refused.status == 303 && refused.location == "/checkout/review?changed", "\(refused.summary)")
            let again = try NoticeTests.next(browser, after: refused, path: "/checkout/review?changed")
            #expect(NoticeTests.notice(on: again)?.contains("Trail Running Shoes now costs $150.00 (it was $128.00).") == true, "\(again.summary)")
            // 150.00 + 2 × 24.50, no longer 128.00 + 2 × 24.50.
            #expect(again.text.contains("$199.00") && !again.text.contains("$177.00"), "Review shows the prices Place order checks")
            #expect(try browser.click("Place order", on: again).status == 303, "placed once reviewed again")
            #expect(Self.orders(on: try browser.get("/profile")).count == 1)
        }

        @Test("A form of Place order that is damaged is refused with 400 and places nothing")
        func damagedPlaceForm() throws {
            let browser = try TestShop(inProcess: true).browser()
            #expect(try browser.postDelivery().status == 303)
            for fields in [[("version", "x"), ("lines", ""), ("delivery", "0"), ("details", "1")], [("version", "1"), ("lines", "3:1"), ("delivery", "0"), ("details", "1")],
                           [("version", "1"), ("lines", "3:11:100"), ("delivery", "0"), ("details", "1")], [("version", "1"), ("lines", "")]] {
                #expect(try browser.post("/checkout/place", form: fields).status == 400, "\(fields)")
            }
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty)
        }

        @Test("Place order naming a price no catalog holds, or a product twice, is refused with 400; the server keeps serving")
        func impossibleShownLines() throws {
            let browser = try TestShop(inProcess: true).browser()
            #expect(try browser.postDelivery().status == 303)
            let details = try #require(try browser.get("/checkout/review").html.first("input") { $0["name"] == "details" }?["value"])
            // Summed, the first overflowed Int64 and stopped the process.
            for lines in ["1:10:999999999999999999", "1:1:100000001", "1:1:12800,1:1:12800"] {
                let answer = try browser.post("/checkout/place", form: [("version", "0"), ("lines", lines), ("delivery", "0"), ("details", details)])
                #expect(answer.status == 400 && answer.text.contains("The order form is damaged"), "\(lines): \(answer.summary)")
            }
            #expect(try browser.get("/cart").status == 200)
            #expect(Self.orders(on: try browser.get("/profile")).isEmpty)
        }

        @Test("Orders are listed newest first, each with its own lines")
        func ordersNewestFirst() throws {
            let browser = try TestShop(inProcess: true).browser()
            let first = try browser.placeOrder()
            #expect(first.status == 303)
            #expect(try browser.add(Products.tent).status == 303)
            #expect(try browser.add(Products.tent).status == 303)
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
            let browser = try TestShop(inProcess: true).browser()
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
            // Zero-width joiners belong in some names; they are no bidi controls.
            #expect(try browser.post("/profile/name", form: [("display_name", "\u{0915}\u{094D}\u{200D}\u{0937}")]).status == 303)
        }

        static let rejectedNames = [
            "", "   ", String(repeating: "x", count: 41), String(repeating: "é", count: 41), "tab\there", "line\nbreak",
            "Dana\u{202E}", "Dana\u{2066}x", "\u{200F}Dana", "Dana\u{061C}",
        ]

        @Test("An empty, too long, control-character or bidi-control name is 400 with Profile again, the name as typed and the reason beside it, and changes nothing", arguments: rejectedNames)
        func badNameIsRejected(name: String) throws {
            let browser = try TestShop(inProcess: true).browser()
            #expect(try browser.post("/profile/name", form: [("display_name", "Grace")]).status == 303)
            let answer = try browser.post("/profile/name", form: [("display_name", name)])
            #expect(answer.status == 400, "name “\(name)”: expected 400, saw \(answer.summary)")
            let field = try #require(answer.html.first("input") { $0["name"] == "display_name" }, "no Profile page: \(answer.summary)")
            // Control characters are left out: a page cannot hold them.
            #expect(field["value"] == String(name.unicodeScalars.filter { $0.properties.generalCategory != .control }.map(Character.init)))
            #expect(field["aria-invalid"] == "true" && field["autofocus"] != nil)
            let reason = try #require(answer.html.first { $0["id"] == field["aria-describedby"] }, "no reason named by aria-describedby")
            let message = answer.html.text(of: reason)
            #expect(message.localizedCaseInsensitiveContains("name"), "the message should be about the name: “\(message)”")
            #expect(answer.text.contains("Hi, Grace"), "the greeting keeps the saved name")
            #expect(Self.displayName(on: try browser.get("/profile")) == "Grace")
        }

        @Test("A missing display_name field is 400")
        func missingNameIsRejected() throws {
            let browser = try TestShop(inProcess: true).browser()
            #expect(try browser.post("/profile/name").status == 400)
            #expect(Self.displayName(on: try browser.get("/profile")) == "Guest")
        }

        @Test("Markup in a name renders escaped")
        func nameIsEscaped() throws {
            let browser = try TestShop(inProcess: true).browser()
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
            ("/checkout/delivery", Browser.deliveryFields),
            ("/checkout/place", [("version", "0"), ("lines", ""), ("delivery", "0"), ("details", "0")]),
            ("/profile/delivery", Browser.deliveryFields),
            ("/profile/name", [("display_name", "Mallory")]),
        ]

        /// What the session's pages show, to compare before and after.
        static func state(of browser: Browser) throws -> String {
            let cart = try browser.cart()
            let profile = try browser.get("/profile")
            return "\(cart) name \(ProfileTests.displayName(on: profile) ?? "?") orders \(CheckoutTests.orders(on: profile).count)"
                + " delivery \(profile.text.contains("12 Analytical Row"))"
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
            let browser = try TestShop(inProcess: true).browser()
            let before = try Self.state(of: browser)
            for (path, fields) in Self.actions {
                let answer = try browser.post(path, form: fields, headers: [(header, value)])
                #expect(answer.status == 403, "POST \(path) with \(header): \(value): \(answer.summary)")
            }
            #expect(try Self.state(of: browser) == before)
        }

        @Test("The same post with the token from this site goes through")
        func validTokenPasses() throws {
            let browser = try TestShop(inProcess: true).browser()
            let answer = try browser.post("/cart/items", form: [("product", "3")], headers: [("Origin", "http://127.0.0.1")])
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(try browser.cart().badge == "4")
        }
    }
}
