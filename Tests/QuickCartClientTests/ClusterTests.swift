import QuickCartClient
import Testing

/// The client on one instance and the web on another, both serving one PostgreSQL database.
@Suite("The client across instances", .timeLimit(.minutes(3)))
struct ClusterTests {
    @Test("Paired through different instances: each side's change reaches the other's stream, and a sign-out on one instance is a 401 on the other")
    func acrossInstances() async throws {
        let first = try APIShop(.postgres)
        let second = try APIShop(anotherInstanceOf: first)
        let web = WebShopper(port: second.port)
        let app = try await QuickCartClient.registered(at: first)
        let cart = try await app.pair(with: web)
        #expect(try web.badge() == cart.count)

        let counts = Recording(app.badgeCounts())
        #expect(await counts.until { $0 == [cart.count] } == [cart.count])
        let webStream = try web.eventStream()
        #expect(try webStream.next().data == String(cart.count))

        let tent = try await app.product(named: DemoProducts.tent)
        let added = try await app.addLine(productID: tent.id)
        #expect(try webStream.next().data == String(added.count), "the app's change on the first instance did not reach the web's stream on the second")
        #expect(try web.post("/cart/items", form: [("product", tent.id)]).status == 303)
        #expect(await counts.until { $0.last == added.count + 1 }.last == added.count + 1, "the web's change on the second instance did not reach the app's stream on the first")

        #expect(try web.signOutDevice(named: "Test iPhone").status == 303)
        let signedOut = await refusal { try await app.cart() }
        #expect(signedOut.map { if case .unauthorized = $0 { true } else { false } } == true, "\(String(describing: signedOut))")
        guard case .failure(.unauthorized) = await counts.ending() else {
            Issue.record("the stream on the first instance did not end with unauthorized")
            return
        }
    }
}
