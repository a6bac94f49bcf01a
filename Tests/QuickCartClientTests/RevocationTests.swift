import QuickCartClient
import Testing

/// Signing devices out, from either side, on both backends.
@Suite("Signing the client out", .timeLimit(.minutes(3)))
struct RevocationTests {
    @Test("The web signs the app out: its token gets 401 at once and its badge stream ends with unauthorized", arguments: Backend.allCases)
    func webSignsAppOut(backend: Backend) async throws {
        let (shop, web) = try APIShop.withBrowser(backend)
        let app = try await QuickCartClient.registered(at: shop)
        let cart = try await app.pair(with: web)
        let counts = Recording(app.badgeCounts())
        #expect(await counts.until { $0 == [cart.count] } == [cart.count], "\(backend)")

        #expect(try web.signOutDevice(named: "Test iPhone").status == 303)
        let signedOut = await refusal { try await app.cart() }
        guard case .unauthorized(let problem)? = signedOut else {
            Issue.record("\(backend): a signed-out token's read answered \(String(describing: signedOut))")
            return
        }
        #expect(problem.status == 401)
        guard case .failure(.unauthorized) = await counts.ending() else {
            Issue.record("\(backend): the stream did not end with unauthorized: \(String(describing: await counts.heard.ending))")
            return
        }
        // A new stream is refused too, at once.
        guard case .failure(.unauthorized) = await Recording(app.events()).ending() else {
            Issue.record("\(backend): a signed-out token opened a stream")
            return
        }
        #expect(try web.badge() == cart.count, "\(backend): signing the app out changed the web's cart")
    }

    @Test("The app signs the browser out from its devices list", arguments: Backend.allCases)
    func appSignsWebOut(backend: Backend) async throws {
        let (shop, web) = try APIShop.withBrowser(backend)
        #expect(try web.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
        let app = try await QuickCartClient.registered(at: shop)
        let cart = try await app.pair(with: web)
        let browser = try #require(try await app.devices().first { !$0.current })
        try await app.signOut(deviceID: browser.id)
        #expect(try await app.devices().map(\.current) == [true], "\(backend): the browser is still listed")
        #expect(!(try web.get("/profile").text.contains("Dana")), "\(backend): the signed-out browser still reaches the shopper")
        #expect(try await app.cart() == cart, "\(backend): signing the browser out changed the app's cart")
    }
}
