import Foundation
import QuickCartClient
import Testing

/// Checkout and orders through the client, on both backends.
@Suite("Checkout through the client", .timeLimit(.minutes(3)))
struct CheckoutTests {
    @Test("A repeated Idempotency-Key places one order: the repeat (and a concurrent twin) answer with the first", arguments: Backend.allCases)
    func oneOrderPerKey(backend: Backend) async throws {
        let shop = try APIShop(backend)
        let app = try await QuickCartClient.registered(at: shop)
        let shoes = try await app.product(named: DemoProducts.shoes)
        let cart = try await app.addLine(productID: shoes.id, quantity: 2)
        let key = UUID().uuidString

        let placed = try await app.checkout(idempotencyKey: key, delivery: .pickUp)
        #expect(!placed.isReplay && placed.order.state == .placed, "\(backend): \(placed)")
        #expect(placed.order.total == cart.subtotal && placed.order.lines.map(\.quantity) == cart.lines.map(\.quantity), "\(backend): \(placed.order)")
        #expect(placed.order.lines.map(\.productId) == cart.lines.map(\.product.id) && placed.order.history.map(\.state) == [.placed])
        #expect(placed.order.lines.first { $0.productId == shoes.id }?.unitPrice == shoes.price)

        let repeated = try await app.checkout(idempotencyKey: key, delivery: .pickUp)
        #expect(repeated.isReplay && repeated.order == placed.order, "\(backend): the repeat placed \(repeated)")
        #expect(try await app.orders() == [placed.order], "\(backend): a repeated key placed a second order")
        #expect(try await app.order(id: placed.order.id) == placed.order)
        #expect(try await app.cart().count == 0, "\(backend): checkout left the cart full")

        // Two taps at once with a new key: still one order.
        _ = try await app.addLine(productID: shoes.id)
        let twin = UUID().uuidString
        let taps = [Task { try await app.checkout(idempotencyKey: twin, delivery: .pickUp) }, Task { try await app.checkout(idempotencyKey: twin, delivery: .pickUp) }]
        var answers: [CheckoutResult] = []
        for tap in taps { answers.append(try await tap.value) }
        #expect(answers[0].order == answers[1].order && answers.filter(\.isReplay).count == 1, "\(backend): \(answers)")
        #expect(try await app.orders().map(\.id) == [answers[0].order.id, placed.order.id], "\(backend): newest first, one per key")

        // A new key on the empty cart places nothing.
        let empty = await refusal { try await app.checkout(idempotencyKey: UUID().uuidString, delivery: .pickUp) }
        if case .emptyCart(let problem)? = empty {
            #expect(problem.status == 409)
        } else {
            Issue.record("\(backend): an empty cart's checkout answered \(String(describing: empty))")
        }
        #expect(try await app.orders().count == 2)
    }

    @Test("Checkout confirming the cart the shopper saw places exactly it; a cart that moved since is staleCart with the cart to show again", arguments: Backend.allCases)
    func confirmingTheShownCart(backend: Backend) async throws {
        let shop = try APIShop(backend)
        let app = try await QuickCartClient.registered(at: shop)
        let shown = try await app.addLine(productID: try await app.product(named: DemoProducts.shoes).id)
        // Another device adds a tent after the app showed the cart.
        let tent = try await app.product(named: DemoProducts.tent)
        let now = try await app.addLine(productID: tent.id)
        let refused = await refusal { try await app.checkout(delivery: .pickUp, confirming: shown) }
        if case .staleCart(let current, let problem)? = refused {
            #expect(problem.status == 412 && current == now, "\(backend): \(current)")
        } else {
            Issue.record("\(backend): a checkout of a cart that moved answered \(String(describing: refused))")
        }
        #expect(try await app.orders().isEmpty, "\(backend): an order of lines the shopper never saw")
        let placed = try await app.checkout(delivery: .pickUp, confirming: now)
        #expect(placed.order.lines.map(\.productId) == now.lines.map(\.product.id) && placed.order.total == now.subtotal, "\(backend): \(placed.order)")
    }

    @Test("Checkout asks for delivery details when none are sent or saved, and keeps those sent on the order", arguments: Backend.allCases)
    func deliveryDetails(backend: Backend) async throws {
        let shop = try APIShop(backend)
        let app = try await QuickCartClient.registered(at: shop)
        _ = try await app.addLine(productID: try await app.product(named: DemoProducts.tent).id)
        let none = await refusal { try await app.checkout() }
        if case .deliveryRequired(let problem)? = none {
            #expect(problem.status == 422 && problem.field == "delivery")
        } else {
            Issue.record("a checkout without delivery details answered \(String(describing: none))")
        }
        var abroad = DeliveryDetails.pickUp
        abroad.country = "CA"
        abroad.method = "express"
        let refused = await refusal { try await app.checkout(delivery: abroad) }
        if case .invalidValue(let field, _)? = refused {
            #expect(field == "delivery.method", "the US courier to Canada")
        } else {
            Issue.record("the US courier to Canada answered \(String(describing: refused))")
        }
        var homeless = DeliveryDetails.pickUp
        homeless.method = "standard"
        homeless.addressLine1 = ""
        if case .invalidValue(let field, _)? = await refusal(of: { try await app.checkout(delivery: homeless) }) {
            #expect(field == "delivery.addressLine1", "a parcel sent without a street address")
        } else {
            Issue.record("a parcel without a street address was not refused")
        }
        #expect(try await app.orders().isEmpty, "a refused checkout placed an order")
        let order = try await app.checkout(delivery: .pickUp).order
        #expect(try await app.orders() == [order] && order.state == .placed)
        // Collected in the store: the address sent is not where it goes, so the order keeps none.
        #expect(order.delivery?.postalCode == "" && order.delivery?.addressLine1 == "" && order.delivery?.country == "", "\(order)")
        #expect(order.delivery?.name == "Dana Reyes" && order.delivery?.email == "dana@example.com", "\(order)")
        // An app need send no address for it.
        _ = try await app.addLine(productID: try await app.product(named: DemoProducts.tent).id)
        let collected = try await app.checkout(delivery: DeliveryDetails(name: "Dana Reyes", email: "dana@example.com", method: "pickup")).order
        #expect(collected.deliveryMethod?.code == "pickup" && collected.delivery?.name == "Dana Reyes", "\(collected)")
        let pickUp = try #require(try await app.deliveryMethods().first { $0.code == "pickup" })
        #expect(pickUp.price.minorUnits == 0 && pickUp.countries == ["US"] && pickUp.payment == "in-store")
        #expect(order.deliveryMethod?.code == "pickup" && order.deliveryMethod?.payment == "in-store" && order.deliveryMethod?.howToPay == pickUp.howToPay)
        #expect(order.total == order.subtotal, "a free pick-up added to the total: \(order)")
    }

    @Test("Another shopper's order is not found", arguments: [Backend.sqlite])
    func othersOrder(backend: Backend) async throws {
        let shop = try APIShop(backend)
        let app = try await QuickCartClient.registered(at: shop), other = try await QuickCartClient.registered(at: shop, device: "Other")
        _ = try await app.addLine(productID: try await app.product(named: DemoProducts.tent).id)
        let order = try await app.checkout(delivery: .pickUp).order
        let others = await refusal { try await other.order(id: order.id) }
        if case .notFound(let problem)? = others {
            #expect(problem.status == 404)
        } else {
            Issue.record("another shopper's read of the order answered \(String(describing: others))")
        }
        #expect(try await other.orders().isEmpty)
    }
}
