/// Where an order goes and how, as it was when placed: the contact and address, the delivery
/// method's name and what it cost, and how the order is to be paid.
public struct OrderDelivery: Sendable, Hashable {
    /// Contact, address and the method's code.
    public var details: DeliveryDetails
    public var methodName: String
    /// What delivery cost this order (zero when it was free).
    public var price: Money
    public var payment: DeliveryMethod.Payment
    public var paymentDetails: String

    /// The delivery of an order to `details` by `method`, for an order of `subtotal`; an order
    /// collected in the store keeps no address (one typed before choosing it is not where it goes).
    public init(details: DeliveryDetails, method: DeliveryMethod, subtotal: Money) {
        self.init(
            details: method.isCollected ? details.withoutAddress : details, methodName: method.name, price: method.price(forSubtotal: subtotal), payment: method.payment,
            paymentDetails: method.paymentDetails
        )
    }

    /// A delivery as stored.
    public init(details: DeliveryDetails, methodName: String, price: Money, payment: DeliveryMethod.Payment, paymentDetails: String) {
        self.details = details
        self.methodName = methodName
        self.price = price
        self.payment = payment
        self.paymentDetails = paymentDetails
    }

    /// Whether the shopper collects the order in the store (it has no address).
    public var isCollected: Bool { payment.isCollected }

    /// The instruction for paying: the standard sentence, then the shop's details.
    public var howToPay: String { payment.howToPay(paymentDetails) }
}
