/// Where and how an order goes: the web's Delivery step, as checkout's `delivery` member.
///
/// The server checks it by the web's rules (a readable name, an email, an address in a
/// country the chosen method serves; no address for a method paid `in-store`, whose order the
/// shopper collects in the store and which keeps none) and answers
/// ``QuickCartError/invalidValue(field:problem:)`` naming the field at fault
/// (`delivery.postalCode`). Details sent with a checkout are not saved on the shopper; an order
/// placed without them uses the shopper's saved ones.
public struct DeliveryDetails: Hashable, Sendable, Codable {
    public var name: String
    public var email: String
    /// Optional: empty when not given.
    public var phone: String
    public var addressLine1: String
    /// Optional: empty when not given.
    public var addressLine2: String
    public var city: String
    /// State, province or county; optional where the country has none.
    public var region: String
    public var postalCode: String
    /// An ISO 3166-1 alpha-2 code (`"US"`) that the chosen method serves (any, or none, for one
    /// collected in the store).
    public var country: String
    /// The code of one of the shop's delivery methods (`"standard"`).
    public var method: String

    /// Details with every field given; the optional ones may be left empty, and the address
    /// (`addressLine1`, `city`, `postalCode`, `country`) for a method paid `in-store`.
    public init(
        name: String, email: String, phone: String = "", addressLine1: String = "", addressLine2: String = "",
        city: String = "", region: String = "", postalCode: String = "", country: String = "", method: String
    ) {
        self.name = name
        self.email = email
        self.phone = phone
        self.addressLine1 = addressLine1
        self.addressLine2 = addressLine2
        self.city = city
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.method = method
    }
}

/// Checkout's body: the delivery details, or nothing for the saved ones.
struct CheckoutBody: Encodable, Sendable {
    let delivery: DeliveryDetails?
    /// The lines the shopper confirmed: the shown cart's lines for sale.
    let lines: [ConfirmedLine]?

    init(delivery: DeliveryDetails?, confirming cart: Cart?) {
        self.delivery = delivery
        lines = cart.map { cart in
            cart.lines.filter(\.product.available).map { ConfirmedLine(productId: $0.product.id, quantity: $0.quantity, unitPrice: $0.product.price) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(delivery, forKey: .delivery)
        try container.encodeIfPresent(lines, forKey: .lines)
    }

    private enum CodingKeys: String, CodingKey {
        case delivery, lines
    }
}

/// A line as the app showed it, in checkout's `lines`.
struct ConfirmedLine: Encodable, Sendable {
    let productId: String
    let quantity: Int
    let unitPrice: Money
}
