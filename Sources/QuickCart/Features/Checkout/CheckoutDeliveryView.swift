import Mustache

/// Checkout's first step, Delivery (`checkout-delivery.mustache`, `/checkout`): who and where,
/// and how the order is delivered; or, with nothing to check out, the way back to the cart.
struct CheckoutDeliveryView: PageView {
    /// `nil` when the cart has nothing for sale.
    let form: DeliveryFormView?
    /// Whether the form holds the details saved last time.
    let offersSaved: Bool

    static let templateName = "checkout-delivery"
    static let mustacheFields: MustacheFields<CheckoutDeliveryView> = [
        "form": .optional(\.form),
        "offersSaved": .bool(\.offersSaved),
    ]
}
