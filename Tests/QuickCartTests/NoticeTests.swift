import Foundation
import HTTPTesting
@testable import QuickCart
import Testing

extension ShopTests {
    /// Every cart change says what happened on the page it leads to, once, through a
    /// short-lived cookie; nothing is stored for it.
    @Suite("Notices") struct NoticeTests {
        /// The notice cookie an answer sets, if any.
        static func noticeCookie(of page: Page) -> Page.SetCookie? {
            page.setCookies.first { $0.name == "quickcart_notice" }
        }

        /// The page `path` as a browser that kept `answer`'s notice cookie would get it.
        static func next(_ browser: Browser, after answer: Page, path: String) throws -> Page {
            let cookie = try #require(noticeCookie(of: answer), "no notice cookie on \(answer.summary)")
            return try browser.get(path, headers: [("Cookie", "quickcart_notice=\(cookie.value)")])
        }

        /// The text of the page's notice, if it shows one.
        static func notice(on page: Page) -> String? {
            page.html.first { $0["data-notice"] != nil }.map { page.html.text(of: $0) }
        }

        @Test("Add sets a short-lived, HttpOnly, SameSite=Lax notice that the next page shows once and clears")
        func addLeavesANotice() throws {
            let browser = try TestShop(inProcess: true).browser()
            let answer = try browser.click("Add \(Products.tent) to cart", on: try browser.get("/"))
            let cookie = try #require(Self.noticeCookie(of: answer))
            #expect(cookie.attributes["path"] == "/" && cookie.attributes["httponly"] != nil && cookie.attributes["samesite"] == "Lax")
            let age = try #require(cookie.attributes["max-age"].flatMap { Int($0) })
            #expect((1...120).contains(age), "the notice should live about a minute, not \(age) s")

            let home = try Self.next(browser, after: answer, path: "/")
            #expect(Self.notice(on: home) == "Added \(Products.tent) — 1 in cart")
            let cleared = try #require(Self.noticeCookie(of: home), "the page that shows the notice should clear it")
            #expect(cleared.value.isEmpty && cleared.attributes["max-age"] == "0")
            #expect(Self.notice(on: try browser.get("/")) == nil, "a page without the cookie shows no notice")
        }

        @Test("A product's name in a notice is cut to 40 characters, so a notice stays a few lines on a phone")
        func longNamesAreCut() {
            #expect(Notice.naming(Products.shoes) == Products.shoes)
            let forty = String(repeating: "Tent ", count: 8).trimmingWhitespace() + "!"
            #expect(forty.count == 40 && Notice.naming(forty) == forty, "a name of 40 characters is whole")
            let long = "Ultra-Extra-Superlight Carbon-Fibre Trekking Pole Set, Pair"
            #expect(Notice.naming(long) == "Ultra-Extra-Superlight Carbon-Fibre Tre…")
            #expect(Notice.naming("Rain Shell Jacket for the Wettest Days of  the Year") == "Rain Shell Jacket for the Wettest Days…", "no space before the ellipsis")
            let family = String(repeating: "👩‍👩‍👧", count: 45)
            #expect(Notice.naming(family) == String(repeating: "👩‍👩‍👧", count: 39) + "…", "characters, not bytes or scalars")
        }

        @Test("The steppers, the limit and Remove each say what happened")
        func wording() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let increased = try browser.click("Increase quantity of \(Products.shoes)", on: try browser.get("/cart"))
            #expect(Self.notice(on: try Self.next(browser, after: increased, path: "/cart")) == "\(Products.shoes) — 2 in cart")

            let id = try shop.productID(named: Products.shoes)
            _ = try browser.post("/cart/items/\(id)/quantity", form: [("quantity", "9"), ("return_to", "/cart")])
            let tenth = try browser.click("Increase quantity of \(Products.shoes)", on: try browser.get("/cart"))
            #expect(Self.notice(on: try Self.next(browser, after: tenth, path: "/cart"))
                == "You can have at most 10 of \(Products.shoes) — 10 in cart")
            let refused = try browser.post("/cart/items", form: [("product", id), ("return_to", "/")])
            #expect(Self.notice(on: try Self.next(browser, after: refused, path: "/")) == "You can have at most 10 of \(Products.shoes)")
            #expect(try browser.cart().row(Products.shoes)?.quantity == 10)

            let removed = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            #expect(Self.notice(on: try Self.next(browser, after: removed, path: "/cart")) == "Removed \(Products.bottle)")
        }

        @Test("Removing the only row leads back to the cart without an anchor")
        func removingTheLastRow() throws {
            let browser = try TestShop(inProcess: true).browser()
            _ = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            let answer = try browser.click("Remove \(Products.shoes)", on: try browser.get("/cart"))
            #expect(answer.status == 303 && answer.location == "/cart", "\(answer.summary)")
        }

        @Test("A page the script re-reads because the cart changed elsewhere leaves the notice for its own page")
        func refreshLeavesTheNotice() throws {
            let browser = try TestShop(inProcess: true).browser()
            let answer = try browser.click("Add \(Products.tent) to cart", on: try browser.get("/"))
            let cookie = try #require(Self.noticeCookie(of: answer))
            let refresh = try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(cookie.value)"), ("X-QuickCart-Refresh", "1")])
            #expect(Self.notice(on: refresh) == nil && Self.noticeCookie(of: refresh) == nil)
        }

        @Test("A notice cookie the shop did not sign shows nothing: forged, altered, or past its time", arguments: [
            "Call%20555-0100%20to%20claim%20your%20refund",
            "4102444800..00000000000000000000000000000000.Call%20555-0100",
        ])
        func forgedNoticeIsIgnored(value: String) throws {
            let browser = try TestShop(inProcess: true).browser()
            let page = try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(value)")])
            #expect(page.status == 200 && Self.notice(on: page) == nil, "a forged notice showed: \(Self.notice(on: page) ?? "")")
            #expect(!page.text.contains("555-0100"))
        }

        @Test("The cookie's form and MAC are those any instance of the shop computes: HMAC-SHA-256 of notice|EXPIRES|UNDO|CLIENT|TEXT under the notice key, 16 bytes in hex")
        func noticeCookieIsPinned() throws {
            let notices = NoticeCookies(secret: [UInt8](repeating: 1, count: 32), secure: false)
            let now: Int64 = 1_800_000_000
            // Computed outside the shop (Python's hmac) from the same secret.
            #expect(notices.cookie(Notice(text: "Added Trail Running Shoes — 2 in cart"), forClient: "client-1", at: now).value
                    == "1800000060..17e7249383cf22b5a789c6023b9bd2ff.Added%20Trail%20Running%20Shoes%20%E2%80%94%202%20in%20cart")
            let removed = Notice(text: "Removed Insulated Water Bottle", undo: Notice.Undo(productID: 7, quantity: 2, cartVersion: 41))
            #expect(notices.cookie(removed, forClient: "client-1", at: now).value
                    == "1800000060.7-2-41.e30bb4be6979f9d34a615dd481a1e0c6.Removed%20Insulated%20Water%20Bottle")
            #expect(NoticeCookies(secret: [UInt8](repeating: 1, count: 32), secure: true).cookie(removed, forClient: "client-1", at: now).name == "__Host-quickcart_notice")
        }

        @Test("A notice this shop wrote for another browser shows nothing: its owner's display name cannot be shown on a victim's page")
        func anotherClientsNoticeIsIgnored() throws {
            let shop = try TestShop(inProcess: true)
            let owner = shop.browser()
            let named = try owner.post("/profile/name", form: [("display_name", "Call 555-0100 to claim a refund")])
            let cookie = try #require(Self.noticeCookie(of: named), "no notice on \(named.summary)").value
            #expect(Self.notice(on: try owner.get("/profile", headers: [("Cookie", "quickcart_notice=\(cookie)")]))?.contains("555-0100") == true)
            let victim = shop.browser()
            _ = try victim.get("/cart")
            let page = try victim.get("/cart", headers: [("Cookie", "quickcart_notice=\(cookie)")])
            #expect(page.status == 200 && Self.notice(on: page) == nil, "another browser's notice showed: \(Self.notice(on: page) ?? "")")
            #expect(!page.text.contains("555-0100"))
        }

        @Test("A signed notice with its text or its Undo changed shows nothing")
        func alteredNoticeIsIgnored() throws {
            let browser = try TestShop(inProcess: true).browser()
            let answer = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            let cookie = try #require(Self.noticeCookie(of: answer)).value
            let parts = cookie.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 4, "unexpected notice cookie \(cookie)")
            let otherText = [parts[0], parts[1], parts[2], "Call%20555-0100"].joined(separator: ".")
            let otherUndo = [parts[0], parts[1].replacingOccurrences(of: "-2-", with: "-9-"), parts[2], parts[3]].joined(separator: ".")
            #expect(otherUndo != cookie)
            let later = String(Int(parts[0])! + 3600)
            let longer = [later, parts[1], parts[2], parts[3]].joined(separator: ".")
            for forged in [otherText, otherUndo, longer] {
                let page = try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(forged)")])
                #expect(Self.notice(on: page) == nil, "an altered notice showed: \(forged)")
            }
            #expect(Self.notice(on: try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(cookie)")])) == "Removed \(Products.bottle)")
        }

        @Test("Remove's notice has Undo, a CSRF-checked post that puts the line back with its quantity, once")
        func undoRemove() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let removed = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            let cart = try Self.next(browser, after: removed, path: "/cart")
            #expect(Self.notice(on: cart) == "Removed \(Products.bottle)")
            #expect(cart.cartSnapshot.lines == ["1 × \(Products.shoes) at $128.00"])
            let undoButton = try #require(cart.html.button(named: "Undo"), "the notice has no Undo")
            let form = try #require(cart.html.enclosing("form", of: undoButton))
            let action = try #require(form["action"])
            let fields = cart.html.elements("input", in: form).compactMap { input in input["name"].map { ($0, input["value"] ?? "") } }

            let forged = try browser.post(action, form: fields.filter { $0.0 != "csrf" }, csrf: .value("0123456789abcdef0123456789abcdef"))
            #expect(forged.status == 403, "\(forged.summary)")
            #expect(try browser.cart().lines == ["1 × \(Products.shoes) at $128.00"], "a refused Undo changed the cart")

            let undone = try browser.click("Undo", on: cart)
            let bottleID = try shop.productID(named: Products.bottle)
            #expect(undone.status == 303 && undone.location == "/cart#item-\(bottleID)", "\(undone.summary)")
            let back = try Self.next(browser, after: undone, path: "/cart")
            #expect(Self.notice(on: back) == "Put back \(Products.bottle) — 2 in cart")
            #expect(back.cartSnapshot.lines == ["1 × \(Products.shoes) at $128.00", "2 × \(Products.bottle) at $24.50"])
            #expect(back.cartSnapshot.badge == "3")

            let again = try browser.click("Undo", on: cart)
            #expect(again.status == 303, "\(again.summary)")
            #expect(Self.notice(on: try Self.next(browser, after: again, path: "/cart")) == "That can no longer be undone.")
            #expect(try browser.cart().lines == ["1 × \(Products.shoes) at $128.00", "2 × \(Products.bottle) at $24.50"], "a second Undo changed the cart")
        }

        @Test("Undo after another change of the cart does nothing")
        func undoAfterAnotherChange() throws {
            let browser = try TestShop(inProcess: true).browser()
            let removed = try browser.click("Remove \(Products.bottle)", on: try browser.get("/cart"))
            let cart = try Self.next(browser, after: removed, path: "/cart")
            _ = try browser.click("Add \(Products.tent) to cart", on: try browser.get("/"))
            let late = try browser.click("Undo", on: cart)
            #expect(late.status == 303)
            #expect(try browser.cart().row(Products.bottle) == nil, "Undo put the line back after the cart had changed")
        }

        @Test("A notice cookie with control characters or too much text shows nothing", arguments: [
            "%0D%0ASet-Cookie%3A%20x", String(repeating: "A", count: 300),
        ])
        func oddNoticeIsIgnored(value: String) throws {
            let browser = try TestShop(inProcess: true).browser()
            let page = try browser.get("/cart", headers: [("Cookie", "quickcart_notice=\(value)")])
            #expect(page.status == 200 && Self.notice(on: page) == nil)
        }
    }
}
