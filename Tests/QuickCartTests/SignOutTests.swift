import Foundation
@testable import QuickCart
import Testing

extension ShopTests {
    /// Issue 20, findings 1 and 3, as the review found them: what a cookie can reach once its
    /// browser signed out, or once its first change replaced it. On both backends.
    @Suite("Sign-out and rotation")
    struct SignOutTests {
        /// A shop on `backend` whose clock a test can move (``Clock/testOffsetFile``), and a
        /// browser that has opened its Home, with the first cookie it was given.
        private static func visitedShop(_ backend: StoreBackend) throws -> (TestShop, TestClock, Browser, cookie: String) {
            let clock = try TestClock()
            let shop = try TestShop(on: backend) { $0.testClockFile = clock.path }
            let (browser, cookie) = try shop.visitor()
            return (shop, clock, browser, cookie)
        }

        /// Presses “Sign out of this browser” on Profile, and checks that the browser goes on as a
        /// fresh, empty shopper: not the starter cart, and still empty once its first change stores it.
        private static func signOut(_ browser: Browser, on backend: StoreBackend, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let answer = try browser.click("Sign out of this browser", on: browser.get("/profile"), sourceLocation: sourceLocation)
            #expect(answer.status == 303, sourceLocation: sourceLocation)
            #expect(try browser.cart().rows.isEmpty, "\(backend): the signed-out browser's new cart is not empty", sourceLocation: sourceLocation)
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303, sourceLocation: sourceLocation)
            #expect(
                try browser.cart().rows.map(\.id) == ["3"], "\(backend): the first change after signing out stored the starter cart",
                sourceLocation: sourceLocation
            )
        }

        @Test("Finding 1: after “Sign out of this browser”, neither the first cookie nor the rotated one reaches the signed-out orders, ever", arguments: StoreBackend.allCases)
        func signOutSpendsBothCookies(backend: StoreBackend) throws {
            // GET / gave cookie C0; a change rotated it to C1; checkout placed order #N.
            let (shop, clock, browser, c0) = try Self.visitedShop(backend)
            defer { shop.stop() }
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            let c1 = try #require(browser.sessionCookie)
            #expect(c1 != c0, "the first change rotates the cookie")
            let placed = try browser.placeOrder()
            let confirmation = try #require(placed.location)
            let number = try #require(confirmation.split(separator: "=").last?.prefix { $0.isNumber })
            #expect(try browser.get("/profile").text.contains("Order #\(number)"))
            // "Sign out of this browser" with C1.
            try Self.signOut(browser, on: backend)

            // Then, with C0 older than the five-minute grace: a page, and a post of a new name.
            try clock.set(SessionManager.spentCookieGrace + 60)
            for cookie in [c0, c1] {
                let copy = shop.browser(cookie: cookie)
                let profile = try copy.get("/profile")
                #expect(profile.status == 200)
                #expect(!profile.text.contains("Order #\(number)"), "\(backend): a spent cookie shows the signed-out order")
                #expect(profile.sessionCookie != nil, "\(backend): a spent cookie is not answered as a new session")
                #expect(try copy.cart().rows.isEmpty, "\(backend): a spent cookie's new session is not empty")
                let token = try copy.token()
                let renamed = try shop.browser(cookie: cookie).post("/profile/name", form: [("display_name", "Mallory")], csrf: .value(token))
                if let fresh = renamed.sessionCookie?.value {
                    #expect(!(try shop.browser(cookie: fresh).get("/profile").text.contains("Order #\(number)")),
                            "\(backend): the cookie a post gave a spent cookie leads to the signed-out order")
                }
            }
            // And later still, on the far side of the idle lifetime's first day.
            try clock.set(86_400)
            for cookie in [c0, c1] {
                #expect(!(try shop.browser(cookie: cookie).get("/profile").text.contains("Order #\(number)")))
            }
        }

        @Test("Finding 1 within the grace: the cookie from before the first change is spent by the sign-out at once", arguments: StoreBackend.allCases)
        func signOutSpendsTheFirstCookieWithinTheGrace(backend: StoreBackend) throws {
            let (shop, _, browser, c0) = try Self.visitedShop(backend)
            defer { shop.stop() }
            #expect(try browser.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
            try Self.signOut(browser, on: backend)
            let copy = shop.browser(cookie: c0)
            let page = try copy.get("/profile")
            #expect(!page.text.contains("Dana") && page.sessionCookie != nil, "\(backend): C0 still reaches the signed-out shopper")
            let stream = try shop.browser(cookie: c0).request("GET", "/events")
            #expect(stream.status == 403, "\(backend): C0 opens a stream: \(stream.summary)")
        }

        @Test("Finding 3: within the grace the old cookie reaches the stored cart but is never given a cookie; after it, nothing", arguments: StoreBackend.allCases)
        func graceGivesNoNewCookie(backend: StoreBackend) throws {
            // A cookie planted before the victim's first change...
            let (shop, clock, _, c0) = try Self.visitedShop(backend)
            defer { shop.stop() }
            let victim = shop.browser(cookie: c0)
            #expect(try victim.post("/profile/name", form: [("display_name", "Victim")]).status == 303)
            #expect(victim.sessionCookie != c0)
            // ...used by whoever planted it within the five minutes.
            try clock.set(SessionManager.spentCookieGrace - 30)
            let attacker = shop.browser(cookie: c0)
            let page = try attacker.get("/profile")
            #expect(page.text.contains("Victim"), "\(backend): requests in flight within the grace reach the stored session")
            #expect(page.sessionCookie == nil, "\(backend): the old cookie was handed a cookie: \(page.sessionCookie?.value ?? "")")
            let post = try attacker.post("/profile/name", form: [("display_name", "Victim too")])
            #expect(post.status == 303 && post.sessionCookie == nil, "\(backend): \(post.summary)")
            try clock.set(SessionManager.spentCookieGrace + 1)
            #expect(!(try attacker.get("/profile").text.contains("Victim")), "\(backend): the old cookie outlived the grace")
            #expect(try victim.get("/profile").text.contains("Victim too"))
        }
    }
}

/// A clock offset a running shop reads (``Configuration/testClockFile``): seconds to add.
final class TestClock {
    private let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path + "/clock"
        try set(0)
    }

    /// From now on the shop's clock runs `seconds` ahead.
    func set(_ seconds: Int64) throws {
        try Data(String(seconds).utf8).write(to: URL(fileURLWithPath: path))
    }
}
