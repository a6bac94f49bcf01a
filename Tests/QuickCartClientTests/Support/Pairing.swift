import QuickCartClient
import Testing

/// The demo catalog's products the tests use, by name.
enum DemoProducts {
    static let shoes = "Trail Running Shoes"
    static let bottle = "Insulated Water Bottle"
    static let tent = "Ultralight Tent"
}

extension DeliveryDetails {
    /// Details the demo shop accepts: picked up in store, so an order's total is its subtotal.
    static let pickUp = DeliveryDetails(
        name: "Dana Reyes", email: "dana@example.com", addressLine1: "1 Main Street", city: "Springfield", region: "IL",
        postalCode: "62701", country: "US", method: "pickup"
    )
}

extension QuickCartClient {
    /// A new client of the shop at `shop`, with its token (and `reconnection` for its streams).
    static func registered(at shop: APIShop, device: String = "Test iPhone", reconnection: ReconnectPolicy = ReconnectPolicy()) async throws -> QuickCartClient {
        let anonymous = QuickCartClient(baseURL: shop.baseURL, reconnection: reconnection)
        let registration = try await anonymous.createClient(device: device)
        #expect(registration.token.count >= 22 && !registration.client.id.isEmpty, "\(registration)")
        return anonymous.withToken(registration.token)
    }

    /// The catalog's product named `name`.
    func product(named name: String) async throws -> Product {
        try #require(try await catalog().first { $0.name == name }, "no \(name) in the catalog")
    }

    /// Joins `web`'s shopper with a code the web shows, as the web's "Continue on another
    /// device" does, and returns the cart both share now.
    func pair(with web: WebShopper) async throws -> Cart {
        let code = try web.showCode()
        return try await join(code: code).cart
    }
}

extension Cart {
    /// How many of `product` the cart holds (0 without a line).
    func quantity(of product: Product) -> Int {
        lines.first { $0.product.id == product.id }?.quantity ?? 0
    }
}

extension Money {
    /// The amount as the web's pages write dollars: `$1,234.50`.
    var webText: String {
        var whole = String(amountText.prefix { $0 != "." }), grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        return "$" + whole + grouped + amountText.drop { $0 != "." }
    }
}
