import QuickCartClient
import Testing

/// The catalog without a token, and the server's problems as the client's typed errors.
@Suite("Catalog reads and typed errors", .timeLimit(.minutes(3)))
struct ProblemTests {
    @Test("The catalog, a product and a search read without a token, with exact money", arguments: Backend.allCases)
    func catalogWithoutToken(backend: Backend) async throws {
        let shop = try APIShop(backend)
        let anonymous = QuickCartClient(baseURL: shop.baseURL)
        let catalog = try await anonymous.catalog()
        let bottle = try #require(catalog.first { $0.name == DemoProducts.bottle }, "\(backend): \(catalog.map(\.name))")
        #expect(bottle.price == Money(minorUnits: 2450, currency: "USD") && bottle.price.amountText == "24.50", "\(bottle.price)")
        #expect(try await anonymous.product(id: bottle.id) == bottle)
        let found = try await anonymous.search("bottle")
        #expect(found.query == "bottle" && found.products.contains(bottle), "\(backend): \(found)")
        let missing = await refusal { try await anonymous.product(id: "999999") }
        guard case .notFound(let problem)? = missing else {
            Issue.record("\(backend): a missing product answered \(String(describing: missing))")
            return
        }
        #expect(problem.status == 404 && problem.type == "/api/v1/problems/not-found")
    }

    @Test("Each refusal arrives as its own case: unauthorized, invalid value with its field, invalid code")
    func typedErrors() async throws {
        let shop = try APIShop(.sqlite)
        let noToken = await refusal { try await QuickCartClient(baseURL: shop.baseURL).cart() }
        guard case .unauthorized(let problem)? = noToken else {
            Issue.record("the cart without a token answered \(String(describing: noToken))")
            return
        }
        #expect(problem.status == 401)
        let madeUp = await refusal { try await QuickCartClient(baseURL: shop.baseURL, token: "not-a-token").cart() }
        #expect(madeUp.map { if case .unauthorized = $0 { true } else { false } } == true, "a made-up token: \(String(describing: madeUp))")

        let app = try await QuickCartClient.registered(at: shop)
        let tent = try await app.product(named: DemoProducts.tent)
        let cart = try await app.addLine(productID: tent.id)
        let eleven = await refusal { try await app.setQuantity(productID: tent.id, to: 11) }
        guard case .invalidValue(let field, let invalid)? = eleven else {
            Issue.record("a quantity of 11 answered \(String(describing: eleven))")
            return
        }
        #expect(field == "quantity" && invalid.status == 422, "\(invalid)")
        let wrongCode = await refusal { try await app.join(code: "BBBB-BBBB") }
        guard case .invalidCode(let refused)? = wrongCode else {
            Issue.record("a made-up code answered \(String(describing: wrongCode))")
            return
        }
        #expect(refused.status == 422)
        #expect(try await app.cart() == cart, "a refused call changed the cart")
    }

    @Test("Creating clients from one address is refused as rate limited, with Retry-After, once it made too many")
    func rateLimited() async throws {
        let shop = try APIShop(.sqlite)
        let anonymous = QuickCartClient(baseURL: shop.baseURL)
        var made = 0
        while made < 100, await refusal(of: { try await anonymous.createClient(device: "Bot \(made)") }) == nil { made += 1 }
        let refused = await refusal { try await anonymous.createClient() }
        guard case .rateLimited(let retryAfter, let problem)? = refused else {
            Issue.record("after \(made) clients: \(String(describing: refused))")
            return
        }
        #expect(made > 0 && made < 100 && problem.status == 429, "\(made) clients made before \(problem)")
        #expect(retryAfter.map { $0 > .zero } == true, "no Retry-After: \(String(describing: retryAfter))")
    }
}
