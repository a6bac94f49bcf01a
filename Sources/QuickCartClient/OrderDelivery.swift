/// Where an order goes, as it was placed: the checkout's details and the country's name.
public struct OrderDelivery: Hashable, Sendable, Codable {
    public let name: String
    public let email: String
    /// Empty when none was given.
    public let phone: String
    public let addressLine1: String
    /// Empty when none was given.
    public let addressLine2: String
    public let city: String
    /// Empty where the address has none.
    public let region: String
    public let postalCode: String
    /// ISO 3166-1 alpha-2 (`"US"`).
    public let country: String
    /// The country as the shop names it (`"United States"`).
    public let countryName: String
}

/// How an order goes and is paid, as it was when placed (a later change of the shop's methods
/// does not change it).
public struct OrderDeliveryMethod: Hashable, Sendable, Codable {
    /// The method's code in the shop's configuration (`"standard"`).
    public let code: String
    public let name: String
    /// What delivery cost this order (zero when free).
    public let price: Money
    /// `bank-transfer`, `on-delivery` or `in-store`: QuickCart takes no payment itself.
    public let payment: String
    /// The shop's words on how to pay (bank details, cash on delivery, at the counter).
    public let howToPay: String
}

/// One of the shop's delivery methods, as `GET /api/v1/delivery-methods` lists it.
public struct DeliveryMethod: Hashable, Sendable, Codable, Identifiable {
    /// The code checkout's ``DeliveryDetails/method`` names.
    public let code: String
    public let name: String
    public let price: Money
    /// Orders whose subtotal reaches this pay no delivery; `nil` when never free.
    public let freeFrom: Money?
    /// The ISO 3166-1 alpha-2 codes it delivers to.
    public let countries: [String]
    /// `bank-transfer`, `on-delivery` or `in-store`.
    public let payment: String
    /// The shop's words on how to pay.
    public let howToPay: String

    public var id: String { code }
}
