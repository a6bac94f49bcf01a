import Foundation
import HTTPTesting
@testable import QuickCart
import Testing

extension ShopTests {
    /// "Continue on another device", the whole way over HTTP on both backends: a code and its QR
    /// code, the join page that changes nothing, the join that merges, codes that are used,
    /// guessed or expired, and signing a device out.
    @Suite("Devices and codes")
    struct DeviceJoinTests {
        static func code(in page: Page) -> String? {
            guard let range = page.text.range(of: #"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}"#, options: .regularExpression) else { return nil }
            return String(page.text[range])
        }

        /// The phone (Dana, with the demo cart and one tent more) shows a code.
        @Test("A browser's searches made before it joined go with it into the cart it joins, at the join", arguments: StoreBackend.allCases)
        func searchesGoWithAJoin(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let phone = shop.browser(), laptop = shop.browser()
            let code = try Self.showCode(phone)
            _ = try laptop.get("/")
            _ = try laptop.search("tent")
            let joined = try laptop.post("/join", form: [("code", code)])
            #expect(joined.status == 303, "\(backend): \(joined.summary)")
            #expect(joined.setCookies.first { $0.name == "quickcart_searches" }?.attributes["max-age"] == "0", "\(backend): the join left the searches' cookie")
            #expect(Self.recent(try phone.get("/search")) == ["tent"], "\(backend): the shopper's other device waits for the laptop's next search")
            #expect(Self.recent(try laptop.search("bottle")) == ["bottle", "tent"], "\(backend)")
        }

        /// The searches a Search page lists under Recent, newest first.
        private static func recent(_ page: Page) -> [String] {
            let html = page.html
            guard let list = html.first("ul", where: { $0["class"] == "recent__list" }) else { return [] }
            return html.elements("a", in: list).map { html.text(of: $0) }
        }

        static func showCode(_ phone: Browser) throws -> String {
            #expect(try phone.post("/profile/code").status == 303)
            let page = try phone.get("/profile/code")
            #expect(page.text.contains("<svg") && page.text.contains("expires in"), "\(page.summary)")
            return try #require(Self.code(in: page), "no code on \(page.text)")
        }

        @Test("A code joins another browser: the link's page changes nothing, the post merges its cart, both follow each other, the code works once", arguments: StoreBackend.allCases)
        func joinWithCode(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend)
            defer { shop.stop() }
            let phone = shop.browser(), laptop = shop.browser()
            #expect(try phone.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
            let code = try Self.showCode(phone)
            let phoneStream = try phone.eventStream(path: "/events?texts")
            #expect(try phoneStream.next().data == "3")
            _ = try phoneStream.next()

            // The laptop has changed its own cart: two more tents (product 3) on the demo cart's 3.
            #expect(try laptop.post("/cart/items", form: [("product", "3")]).status == 303)
            #expect(try laptop.post("/cart/items", form: [("product", "3")]).status == 303)
            let before = try laptop.cart()
            let link = try laptop.get("/join?code=\(code)")
            #expect(link.status == 200 && link.text.contains("Join <bdi>Dana</bdi>'s cart — 3 items"), "\(backend): \(link.text)")
            #expect(try laptop.cart() == before && phone.cart().badge == "3", "\(backend): opening the link changed something")

            let joined = try laptop.post("/join", form: [("code", code.lowercased())])
            let location = try #require(joined.location)
            #expect(joined.status == 303 && location.hasPrefix("/cart?joined=5."), "\(backend): \(joined.summary)")
            let cart = try laptop.get(location)
            #expect(NoticeTests.notice(on: cart) == "5 items from this browser were added.", "\(backend): \(cart.summary)")
            // The count is tagged for this browser: made up, or followed by anyone else, it says nothing.
            for forged in ["/cart?joined=5", "/cart?joined=999." + location.split(separator: ".").last!, "/cart?joined=5.0000000000000000"] {
                #expect(NoticeTests.notice(on: try laptop.get(forged)) == nil, "\(backend): \(forged)")
            }
            #expect(NoticeTests.notice(on: try shop.browser().get(location)) == nil, "\(backend): another browser was told of the merge")
            #expect(try laptop.cart() == phone.cart(), "\(backend): the two browsers show different carts")
            #expect(try phone.cart().badge == "8", "\(backend): the merged cart holds the phone's 3 and the laptop's 5")
            // The phone's open stream hears the merge and the new device.
            var heard: [String] = []
            for _ in 0..<3 { heard.append(try phoneStream.next().description) }
            #expect(heard.contains("badge: 8"), "\(backend): \(heard)")
            // The name is isolated (FSI … PDI): whatever its direction, it cannot reorder the sentence.
            #expect(heard.contains { $0.hasPrefix("device-joined: ") && $0.contains("A new device joined: \u{2068}") && $0.contains("\u{2069} — not you? Sign it out.") },
                    "\(backend): \(heard)")

            // A change through the laptop reaches the phone's stream.
            #expect(try laptop.post("/cart/items", form: [("product", "1")]).status == 303)
            #expect(try phoneStream.next().data == "9")

            // The code works once.
            let stranger = shop.browser()
            #expect(try stranger.post("/join", form: [("code", code)]).status == 400, "\(backend): a used code joined")
            #expect(try stranger.get("/join?code=\(code)").status == 400)

            // Profile lists both devices; the phone signs the laptop out.
            let profile = try phone.get("/profile")
            #expect(profile.text.contains("(this device)") && profile.text.components(separatedBy: "class=\"device\"").count == 3, "\(backend)")
            let seen = profile.text.matches(of: /class="device__seen">Last seen <time datetime="([^"]*)">/).map { String($0.output.1) }
            #expect(seen.count == 2 && seen.allSatisfy { $0.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil }, "last seen, to the day: \(seen)")
            #expect(profile.text.components(separatedBy: "<span class=\"device__name\"><bdi>").count == 3, "\(backend): each name is isolated")
            let laptopStream = try laptop.eventStream()
            #expect(try laptopStream.next().data == "9")
            let handle = try #require(profile.text.range(of: #"name="device" value="[0-9a-f]+""#, options: .regularExpression).map {
                String(profile.text[$0].dropFirst(21).dropLast())
            })
            let laptopCookie = try #require(laptop.sessionCookie)
            #expect(try phone.post("/profile/devices/sign-out", form: [("device", handle)]).status == 303)
            #expect(throws: (any Error).self, "\(backend): the signed-out device's stream stayed open") { _ = try laptopStream.next() }
            let signedOut = shop.browser(cookie: laptopCookie)
            let after = try signedOut.get("/profile")
            #expect(!after.text.contains("Dana") && after.sessionCookie != nil, "\(backend): the signed-out cookie still reaches the cart")
            #expect(try signedOut.cart().rows.isEmpty, "\(backend): the signed-out device's next page is not an empty cart")
            #expect(try phone.cart().badge == "9", "\(backend): signing the laptop out changed the phone's cart")
        }

        @Test("After 20 wrong codes an address is refused with 429, Retry-After and a page saying to wait")
        func wrongCodesPerAddress() throws {
            let guesser = try TestShop(inProcess: true).browser()
            // Text that is no code guesses none, and costs no try, posted or opened.
            for junk in ["", "x", "BBBB-BBB", String(repeating: "B", count: 500)] {
                for _ in 0..<6 {
                    let refused = try guesser.post("/join", form: [("code", junk)])
                    #expect(refused.status == 400 && refused.text.contains("A code is eight letters"), "\(refused.summary)")
                    let opened = try guesser.get("/join?code=\(junk)")
                    #expect(junk.isEmpty ? opened.status == 200 : opened.status == 400 && opened.text.contains("A code is eight letters"), "\(opened.summary)")
                }
            }
            for _ in 0..<20 { #expect(try guesser.post("/join", form: [("code", "BBBB-BBBB")]).status == 400) }
            let refused = try guesser.post("/join", form: [("code", "BBBB-BBBB")])
            #expect(refused.status == 429 && refused.text.contains("Too many wrong codes from this address."), "\(refused.summary)")
            #expect((Int(refused.header("Retry-After") ?? "") ?? 0) > 0, "\(refused.summary)")
            // The join page opened with a code says the same, as the post does.
            let opened = try guesser.get("/join?code=BBBB-BBBB")
            #expect(opened.status == 429 && opened.text.contains("Too many wrong codes from this address."), "\(opened.summary)")
            #expect((Int(opened.header("Retry-After") ?? "") ?? 0) > 0, "\(opened.summary)")
        }

        @Test("A code refused gives the join page again, the code as typed in its field, the reason beside it and focus on it; the session is not stored")
        func refusedCodeInPlace() throws {
            let browser = try TestShop(inProcess: true).browser()
            _ = try browser.get("/join")
            let cookie = browser.sessionCookie
            for (typed, reason) in [("bbbb bbbb", "That code is not valid"), ("BBBB-BBB", "A code is eight letters")] {
                let refused = try browser.post("/join", form: [("code", typed)])
                #expect(refused.status == 400 && refused.text.contains(reason), "\(refused.summary)")
                let html = refused.html
                let field = try #require(html.first { $0["id"] == "join-code" }, "no code field: \(refused.summary)")
                #expect(field["value"] == (typed == "bbbb bbbb" ? "BBBB-BBBB" : typed), "the field lost what was typed: \(field)")
                #expect(field["aria-invalid"] == "true" && field["aria-describedby"] == "join-problem" && field["autofocus"] != nil, "\(field)")
                #expect(html.first { $0["id"] == "join-problem" }.map { html.text(of: $0).contains(reason) } == true)
                #expect(browser.sessionCookie == cookie, "a refused join stored the session")
            }
        }

        @Test("A code is read as a keyboard may write it: full-width letters, an en dash, a minus sign or spaces between the groups; nothing else is a code")
        func codeAsTyped() throws {
            #expect(JoinCode.normalized("bcdf-ghjk") == "BCDFGHJK")
            #expect(JoinCode.normalized("ＢＣＤＦ－ＧＨＪＫ") == "BCDFGHJK")
            #expect(JoinCode.normalized("BCDF\u{2013}GHJK") == "BCDFGHJK")
            #expect(JoinCode.normalized("BCDF \u{2212} GHJK") == "BCDFGHJK")
            #expect(JoinCode.normalized("\u{00A0}BCDF\u{2011}ghjk\u{3000}") == "BCDFGHJK")
            for notACode in ["BCDF-GHJ", "BCDF-GHJKL", "BCDF-GHJA", "BCDF_GHJK", "BCDF-GHJ\u{0301}K", "BCDF-GHJ\u{0000}K", String(repeating: "-", count: 65) + "BCDFGHJK"] {
                #expect(JoinCode.normalized(notACode) == nil, "\(notACode.unicodeScalars.map { String($0.value, radix: 16) })")
            }

            let (shop, _, code) = try Self.danaShowsACode(on: .sqlite)
            defer { shop.stop() }
            let fullWidth = String(String.UnicodeScalarView(code.unicodeScalars.map { $0 == "-" ? "\u{2013}" : Unicode.Scalar($0.value + 0xFEE0)! }))
            let laptop = shop.browser()
            let query = try #require(fullWidth.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let link = try laptop.get("/join?code=\(query)")
            #expect(link.status == 200 && link.text.contains("Join <bdi>Dana</bdi>'s cart") && link.text.contains("value=\"\(code)\""), "\(link.summary)")
            #expect(try laptop.post("/join", form: [("code", fullWidth)]).location?.hasPrefix("/cart?joined=") == true)
        }

        /// A shop on `backend` whose phone, of a shopper named Dana, shows a code.
        static func danaShowsACode(on backend: StoreBackend) throws -> (shop: TestShop, phone: Browser, code: String) {
            let shop = try TestShop(on: backend)
            let phone = shop.browser()
            #expect(try phone.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
            return (shop, phone, try showCode(phone))
        }

        @Test("A browser never stored that joins goes on under a new cookie: its old one, even within a first change's grace, reaches nothing of the cart it joined; a resend of the join with it is refused and changes nothing", arguments: StoreBackend.allCases)
        func freshBrowsersOldCookieReachesNothing(backend: StoreBackend) throws {
            let (shop, phone, code) = try Self.danaShowsACode(on: backend)
            defer { shop.stop() }
            let laptop = shop.browser()
            #expect(try laptop.get("/join?code=\(code)").status == 200)
            let before = try #require(laptop.sessionCookie)
            let token = try laptop.token()
            #expect(try laptop.post("/join", form: [("code", code)]).status == 303)
            #expect(laptop.sessionCookie != before, "\(backend): the join stored the browser under its old cookie")
            #expect(try laptop.get("/profile").text.contains("Dana"), "\(backend)")
            let holder = shop.browser(cookie: before)
            #expect(!(try holder.get("/profile").text.contains("Dana")), "\(backend): the old cookie reaches the cart it joined")
            let again = try shop.browser(cookie: before).post("/join", form: [("code", code)], csrf: .value(token))
            #expect(again.status == 403, "\(backend): \(again.summary)")
            #expect(try phone.cart().badge == laptop.cart().badge, "\(backend)")
        }

        @Test("A cookie the first change replaced (in its five minutes of grace) can neither see this device's code, join it to another cart, nor sign any device out")
        func renewedCookieCannotJoinOrSeeCodes() throws {
            let shop = try TestShop(inProcess: true)
            let attacker = shop.browser()
            #expect(try attacker.post("/profile/name", form: [("display_name", "Mallory")]).status == 303)
            let attackersCode = try Self.showCode(attacker)

            // A cookie planted before the victim's first change, still in its grace afterwards.
            let victim = shop.browser()
            _ = try victim.get("/cart")
            let planted = try #require(victim.sessionCookie)
            #expect(try victim.post("/cart/items", form: [("product", "3")]).status == 303)
            let victimsCode = try Self.showCode(victim)
            let renewed = shop.browser(cookie: planted)
            #expect(try renewed.get("/cart").status == 200, "the grace still answers pages")

            let seen = try renewed.get("/profile/code")
            #expect(seen.status == 403 && Self.code(in: seen) == nil, "the renewed cookie saw the code: \(seen.summary)")
            #expect(!seen.text.contains(victimsCode))
            let moved = try renewed.post("/join", form: [("code", attackersCode)])
            #expect(moved.status == 403, "the renewed cookie joined the victim to another cart: \(moved.summary)")
            #expect(!(try victim.get("/profile").text.contains("Mallory")), "the victim's browser is in the attacker's cart")
            #expect(try shop.browser().get("/join?code=\(attackersCode)").status == 200, "the refused join used the code")

            // Nor sign devices out, which would outlast the grace: the others, or this browser.
            let phone = shop.browser()
            #expect(try phone.post("/join", form: [("code", victimsCode)]).status == 303)
            #expect(try renewed.post("/profile/devices/sign-out-others", form: []).status == 403)
            #expect(try renewed.post("/profile/sign-out", form: []).status == 403)
            let devices = try victim.get("/profile")
            let handles = devices.html.elements("input") { $0["name"] == "device" }.compactMap { $0["value"] }
            #expect(handles.count == 1, "\(devices.summary)")
            for handle in handles {
                #expect(try renewed.post("/profile/devices/sign-out", form: [("device", handle)]).status == 403)
            }
            #expect(try phone.cart().badge == victim.cart().badge, "a device was signed out with the renewed cookie")
        }

        @Test("A browser stored already goes on under a new cookie when it joins: whoever kept its old one reaches nothing of the cart it joined", arguments: StoreBackend.allCases)
        func joinGivesAStoredBrowserANewCookie(backend: StoreBackend) throws {
            let (shop, phone, code) = try Self.danaShowsACode(on: backend)
            defer { shop.stop() }
            // A browser with a stored session whose cookie someone else kept (a shared computer).
            let laptop = shop.browser()
            #expect(try laptop.post("/cart/items", form: [("product", "3")]).status == 303)
            let kept = try #require(laptop.sessionCookie)
            let stream = try TestEventStreamClient(port: shop.port, headers: [("Cookie", "quickcart_session=\(kept)")])
            #expect(stream.status == 200)
            #expect(try laptop.post("/join", form: [("code", code)]).status == 303)
            #expect(laptop.sessionCookie != kept, "\(backend): the join kept the browser's cookie")
            #expect(try laptop.get("/profile").text.contains("Dana"), "\(backend): the laptop is not in Dana's cart")
            #expect(try laptop.cart().badge == phone.cart().badge, "\(backend)")
            let holder = shop.browser(cookie: kept)
            #expect(!(try holder.get("/profile").text.contains("Dana")), "\(backend): the old cookie reaches the cart it joined")
            #expect(try holder.cart().rows.isEmpty, "\(backend): the old cookie's next page is not an empty cart")
            var ending = ""
            for _ in 0..<20 {
                do { _ = try stream.next() } catch { ending = "\(error)"; break }
            }
            #expect(ending.contains("stream ended"), "\(backend): the old identity's stream outlived the join: \(ending)")
            // The devices list names the laptop by its new identity: signing it out reaches it.
            let devices = try phone.get("/profile")
            let handles = devices.html.elements("input") { $0["name"] == "device" }.compactMap { $0["value"] }
            #expect(handles.count == 1, "\(backend): \(devices.summary)")
            #expect(try phone.post("/profile/devices/sign-out", form: [("device", try #require(handles.first))]).status == 303)
            #expect(!(try laptop.get("/profile").text.contains("Dana")), "\(backend): the laptop was not signed out")
        }

        @Test("A new event stream under a cookie the first change replaced (in its grace) is refused: a planted cookie hears nothing of the shopper")
        func renewedCookieOpensNoStream() throws {
            let shop = try TestShop()
            let victim = shop.browser()
            _ = try victim.get("/cart")
            let planted = try #require(victim.sessionCookie)
            #expect(try victim.post("/cart/items", form: [("product", "3")]).status == 303)
            let renewed = try TestEventStreamClient(port: shop.port, headers: [("Cookie", "quickcart_session=\(planted)")])
            #expect(renewed.status == 403, "a stream under the replaced cookie would hear the shopper past its grace")
            let own = try TestEventStreamClient(port: shop.port, headers: [("Cookie", "quickcart_session=\(try #require(victim.sessionCookie))")])
            #expect(own.status == 200)
        }

        @Test("The fifth wrong try voids a code; an expired code is refused; nothing is joined", arguments: StoreBackend.allCases)
        func wrongAndExpiredCodes(backend: StoreBackend) throws {
            let clock = try TestClock()
            let shop = try TestShop(on: backend) { $0.testClockFile = clock.path }
            defer { shop.stop() }
            let phone = shop.browser(), guesser = shop.browser(), laptop = shop.browser()
            #expect(try phone.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
            var code = try Self.showCode(phone)
            let wrong = code == "BBBB-BBBB" ? "CCCC-CCCC" : "BBBB-BBBB"
            for _ in 0..<4 { #expect(try guesser.post("/join", form: [("code", wrong)]).status == 400) }
            #expect(try laptop.get("/join?code=\(code)").status == 200, "\(backend): four wrong tries voided the code")
            #expect(try guesser.post("/join", form: [("code", wrong)]).status == 400)
            #expect(try laptop.post("/join", form: [("code", code)]).status == 400, "\(backend): the fifth wrong try did not void the code")

            code = try Self.showCode(phone)
            try clock.set(JoinCode.lifetime + 1)
            #expect(try laptop.post("/join", form: [("code", code)]).status == 400, "\(backend): an expired code joined")
            #expect(try phone.get("/profile/code").text.contains("Your last code expired."))
            #expect(!(try laptop.get("/profile").text.contains("Dana")))
        }
    }
}
