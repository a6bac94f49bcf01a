/// A way the shop delivers an order, from its configuration (`quickcart delivery import`): a
/// price, the countries it serves, free delivery from a subtotal if the shop says so, and how
/// an order delivered this way is paid (QuickCart takes no payment itself).
public struct DeliveryMethod: Sendable, Hashable, Identifiable {
    /// How the shopper pays for an order: never through QuickCart.
    public enum Payment: String, Sendable, CaseIterable {
        /// The shopper transfers the money, with the order number as the reference.
        case bankTransfer = "bank-transfer"
        /// The carrier collects the money at the door.
        case onDelivery = "on-delivery"
        /// The shopper pays when collecting the order in the shop.
        case inStore = "in-store"

        /// What the shopper is told to do, before the shop's own details.
        public var instruction: String {
            switch self {
            case .bankTransfer: "Pay by bank transfer once the order is placed, with the order number as the reference."
            case .onDelivery: "Pay when the order is delivered."
            case .inStore: "Pay in the store when you collect the order."
            }
        }

        /// Whether the shopper pays when collecting the order in the store, so collects it
        /// there: such an order needs no address and goes to no country.
        public var isCollected: Bool { self == .inStore }

        /// The whole instruction: ``instruction``, then the shop's own `details`.
        public func howToPay(_ details: String) -> String {
            details.isEmpty ? instruction : instruction + " " + details
        }
    }

    /// The method's key in the file and in forms: lower-case letters, digits and hyphens.
    public var code: String
    /// What the shopper reads: "Standard shipping".
    public var name: String
    /// What delivery costs below ``freeFrom``.
    public var price: Money
    /// The ISO codes of the countries served; empty means every country.
    public var countries: [String]
    /// A subtotal from which delivery is free; `nil` when it never is.
    public var freeFrom: Money?
    public var payment: Payment
    /// The shop's own words on paying: bank account, opening hours; may be empty.
    public var paymentDetails: String

    public var id: String { code }

    /// A method as the shop configured it.
    public init(
        code: String, name: String, price: Money, countries: [String], freeFrom: Money? = nil, payment: Payment, paymentDetails: String = ""
    ) {
        self.code = code
        self.name = name
        self.price = price
        self.countries = countries
        self.freeFrom = freeFrom
        self.payment = payment
        self.paymentDetails = paymentDetails
    }

    /// Whether the shopper collects the order in the store (``Payment/isCollected``).
    public var isCollected: Bool { payment.isCollected }

    /// Whether an order whose details name `country` (or none) may go this way: one collected
    /// in the store may, wherever its shopper lives; otherwise it must deliver there.
    public func suits(country: String) -> Bool {
        isCollected || delivers(to: country)
    }

    /// Whether it delivers to the country with ISO code `country`.
    public func delivers(to country: String) -> Bool {
        countries.isEmpty || countries.contains(country)
    }

    /// What delivering an order of `subtotal` costs: nothing from ``freeFrom`` on.
    public func price(forSubtotal subtotal: Money) -> Money {
        if let freeFrom, subtotal >= freeFrom { return .zero }
        return price
    }

    /// The whole instruction for paying: the standard sentence, then the shop's details.
    public var howToPay: String { payment.howToPay(paymentDetails) }

    /// The countries the methods of `methods` deliver to between them, by name (those
    /// collected in the store deliver nowhere).
    public static func countries(servedBy methods: [DeliveryMethod]) -> [Country] {
        let delivering = methods.filter { !$0.isCollected }
        if delivering.contains(where: \.countries.isEmpty) { return Country.all }
        let codes = Set(delivering.flatMap(\.countries))
        return Country.all.filter { codes.contains($0.code) }
    }
}
