import Testing

extension ShopTests {
    /// The steppers change a quantity relative to what their page showed, so presses made on
    /// pages showing the same quantity (other tabs, other devices) all count.
    @Suite("Relative steppers")
    struct StepperTests {
        @Test("The stepper forms carry the quantity the page showed")
        func formsCarryTheShownQuantity() throws {
            let page = try TestShop(inProcess: true).browser().get("/cart")
            let html = page.html
            for (name, quantity) in [(Products.shoes, "1"), (Products.bottle, "2")] {
                let button = try #require(html.button(named: "Increase quantity of \(name)"))
                let form = try #require(html.enclosing("form", of: button))
                let shown = html.elements("input", in: form).first { $0["name"] == "shown" }
                #expect(shown?["type"] == "hidden" && shown?["value"] == quantity, "the stepper of \(name): \(String(describing: shown))")
            }
        }

        @Test("Two presses of Increase on the same page give +2, and of Decrease −2")
        func pressesFromOnePageAllCount() throws {
            let browser = try TestShop(inProcess: true).browser()
            let page = try browser.get("/cart")
            #expect(try browser.click("Increase quantity of \(Products.shoes)", on: page).status == 303)
            #expect(try browser.click("Increase quantity of \(Products.shoes)", on: page).status == 303)
            #expect(try browser.cart().row(Products.shoes)?.quantity == 3)

            let later = try browser.get("/cart")
            _ = try browser.post("/cart/items/\(try #require(later.cartSnapshot.row(Products.bottle)?.id))/quantity", form: [("quantity", "5")])
            let stale = try browser.get("/cart")
            #expect(try browser.click("Decrease quantity of \(Products.bottle)", on: stale).status == 303)
            #expect(try browser.click("Decrease quantity of \(Products.bottle)", on: stale).status == 303)
            let cart = try browser.cart()
            #expect(cart.row(Products.bottle)?.quantity == 3)
            #expect(cart.badge == "6")
        }

        @Test("Another tab's presses count too: the difference applies to the quantity stored now")
        func differenceAppliesToTheStoredQuantity() throws {
            let shop = try TestShop(inProcess: true)
            let phone = shop.browser()
            // Two devices share a stored session's cookie (the change that stores a session gives it a new one).
            #expect(try phone.post("/profile/theme", form: [("theme", "dark")]).status == 303)
            let laptop = shop.browser(cookie: phone.sessionCookie)
            let phonePage = try phone.get("/cart")
            let laptopPage = try laptop.get("/cart")
            #expect(try phone.click("Increase quantity of \(Products.bottle)", on: phonePage).status == 303)
            #expect(try laptop.click("Increase quantity of \(Products.bottle)", on: laptopPage).status == 303)
            #expect(try phone.cart().row(Products.bottle)?.quantity == 4)
        }

        @Test("A press that changes nothing (the quantity there already) leaves a visitor never stored as it was: no new cookie, and the page's other forms still work")
        func unchangedPressKeepsTheVisitorsCookie() throws {
            let browser = try TestShop(inProcess: true).browser()
            let page = try browser.get("/cart")
            let cookie = try #require(browser.sessionCookie)
            let id = try #require(page.cartSnapshot.row(Products.shoes)?.id)
            let same = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "1"), ("shown", "1")])
            #expect(same.status == 303, "\(same.summary)")
            #expect(browser.sessionCookie == cookie, "a change of nothing moved the visitor to a new cookie")
            #expect(try browser.click("Increase quantity of \(Products.bottle)", on: page).status == 303, "the page's other forms stopped working")
            #expect(try browser.cart().row(Products.bottle)?.quantity == 3)
        }

        static let clampedDifferences: [(start: String, quantity: String, shown: String, expected: Int)] = [
            ("9", "10", "9", 10), ("10", "11", "10", 10), ("2", "1", "2", 1), ("2", "-50", "2", 1),
            ("3", "99999999999999999999999", "-99999999999999999999999", 10),
            ("3", "-99999999999999999999999", "99999999999999999999999", 1), ("4", "7", "7", 4),
        ]

        @Test("A relative change is clamped into 1...10", arguments: clampedDifferences)
        func relativeChangeIsClamped(start: String, quantity: String, shown: String, expected: Int) throws {
            let browser = try TestShop(inProcess: true).browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", start)]).status == 303)
            let answer = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", quantity), ("shown", shown)])
            #expect(answer.status == 303, "\(answer.summary)")
            #expect(try browser.cart().row(Products.shoes)?.quantity == expected, "from \(start), \(quantity) over a shown \(shown)")
        }

        @Test("Without a shown quantity a post stays absolute: the same post twice leaves one value")
        func withoutShownStaysAbsolute() throws {
            let browser = try TestShop(inProcess: true).browser()
            let id = try #require(try browser.cart().row(Products.shoes)?.id)
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "4")]).status == 303)
            #expect(try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "4")]).status == 303)
            #expect(try browser.cart().row(Products.shoes)?.quantity == 4)
        }

        @Test("A shown quantity that is not a whole number gets 400 and changes nothing", arguments: ["abc", "", "1.5", "2x", "-"])
        func nonNumberShownIsRejected(shown: String) throws {
            let browser = try TestShop(inProcess: true).browser()
            let before = try browser.cart()
            let id = try #require(before.row(Products.shoes)?.id)
            let answer = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "2"), ("shown", shown)])
            #expect(answer.status == 400, "shown “\(shown)”: \(answer.summary)")
            #expect(answer.text.contains("quantity shown"), "the message should name the field: \(answer.summary)")
            #expect(try browser.cart() == before)
        }

        @Test("A relative change to an item not in the cart is 404 and changes nothing")
        func relativeChangeOfAnAbsentItemIs404() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let tent = try shop.productID(named: Products.tent)
            let before = try browser.cart()
            let answer = try browser.post("/cart/items/\(tent)/quantity", form: [("quantity", "2"), ("shown", "1")])
            #expect(answer.status == 404, "\(answer.summary)")
            #expect(try browser.cart() == before)
        }
    }
}
