import QuickCartClient
import Testing

/// The client and the web shop as two devices of one shopper, on both backends.
@Suite("The client paired with a browser", .timeLimit(.minutes(3)))
struct PairingTests {
    @Test("Pairing by the web's code joins the carts; a change on either side reaches the other's page, stream and reads", arguments: Backend.allCases)
    func pairAndFollow(backend: Backend) async throws {
        let (shop, web) = try APIShop.withBrowser(backend)
        #expect(try web.post("/profile/name", form: [("display_name", "Dana")]).status == 303)
        let webCount = try web.badge()
        let app = try await QuickCartClient.registered(at: shop)
        let tent = try await app.product(named: DemoProducts.tent)
        let own = try await app.addLine(productID: tent.id, quantity: 2)

        let code = try web.showCode()
        let joined = try await app.join(code: code)
        #expect(joined.added == own.count, "\(backend): \(joined)")
        #expect(joined.cart.count == webCount + own.count, "\(backend): the joined cart is not the web's plus the app's")
        #expect(try web.badge() == joined.cart.count, "\(backend): the web page shows another count")
        #expect(try await app.cart() == joined.cart)
        let devices = try await app.devices()
        #expect(devices.count == 2 && devices.filter(\.current).map(\.device).allSatisfy { $0.contains("Test iPhone") }, "\(backend): \(devices)")

        // Each side listens: the app's badge counts, the web's own stream.
        let counts = Recording(app.badgeCounts())
        #expect(await counts.until { $0.last == joined.cart.count }.last == joined.cart.count, "\(backend): the stream did not open with the count")
        let webStream = try web.eventStream()
        #expect(try webStream.next().data == String(joined.cart.count))

        // The web adds a tent: the app's stream and its next read follow.
        #expect(try web.post("/cart/items", form: [("product", tent.id)]).status == 303)
        let afterWeb = joined.cart.count + 1
        #expect(await counts.until { $0.last == afterWeb }.last == afterWeb, "\(backend): the app's stream did not hear the web's change")
        #expect(try await app.cart().count == afterWeb)
        #expect(try webStream.next().data == String(afterWeb))

        // The app changes the tent's line: the web's stream and page follow.
        let afterApp = try await app.setQuantity(productID: tent.id, to: 5)
        #expect(afterApp.count == afterWeb - 3 + 5, "\(backend): \(afterApp)")
        #expect(try webStream.next().data == String(afterApp.count), "\(backend): the web's stream did not hear the app's change")
        #expect(try web.badge() == afterApp.count)
        #expect(try web.get("/cart").text.contains(afterApp.subtotal.webText), "\(backend): the web's subtotal is not \(afterApp.subtotal)")
        #expect(await counts.until { $0.last == afterApp.count }.last == afterApp.count)

        // Removing a line from the app empties it on the web too.
        let removed = try await app.removeLine(productID: tent.id)
        #expect(!removed.lines.contains { $0.product.id == tent.id })
        #expect(try web.badge() == removed.count)
        #expect(!(try web.get("/cart").text.contains(DemoProducts.tent)), "\(backend): the web's cart still holds the tent")
    }

    @Test("A stale If-Match is refused with 412 and the current cart, whichever device changed it", arguments: Backend.allCases)
    func staleIfMatch(backend: Backend) async throws {
        let (shop, web) = try APIShop.withBrowser(backend)
        let app = try await QuickCartClient.registered(at: shop)
        let bottle = try await app.product(named: DemoProducts.bottle)
        let first = try await app.addLine(productID: bottle.id)
        let second = try await app.adjustQuantity(productID: bottle.id, by: 1, ifMatch: first.version)
        #expect(second.version != first.version && second.quantity(of: bottle) == first.quantity(of: bottle) + 1, "\(backend): \(second)")

        // The app's own older version.
        let older = await refusal { try await app.setQuantity(productID: bottle.id, to: 7, ifMatch: first.version) }
        guard case .staleCart(let current, let problem)? = older else {
            Issue.record("\(backend): a change from the app's older version answered \(String(describing: older))")
            return
        }
        #expect(current == second && problem.status == 412 && problem.type.hasSuffix("/stale-cart"), "\(backend): \(problem)")
        #expect(try await app.cart() == second, "\(backend): the refused change changed the cart")

        // Another device (the web, once paired) changes it: the version the app holds is stale.
        let paired = try await app.pair(with: web)
        #expect(try web.post("/cart/items", form: [("product", bottle.id)]).status == 303)
        let stale = await refusal { try await app.removeLine(productID: bottle.id, ifMatch: paired.version) }
        guard case .staleCart(let latest, _)? = stale else {
            Issue.record("\(backend): a change from a stale version answered \(String(describing: stale))")
            return
        }
        let now = try await app.cart()
        #expect(latest.count == paired.count + 1 && latest == now, "\(backend): \(latest)")
        // From the current version the same change applies.
        let applied = try await app.removeLine(productID: bottle.id, ifMatch: latest.version)
        #expect(!applied.lines.contains { $0.product.id == bottle.id })
        #expect(try web.badge() == applied.count)
    }
}
