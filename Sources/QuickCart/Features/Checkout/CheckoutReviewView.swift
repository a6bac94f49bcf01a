import Mustache

/// Checkout's second step, Review (`checkout-review.mustache`, `/checkout/review`): the lines,
/// subtotal, delivery and total, where it goes and how it is paid, and "Place order", whose
/// form carries what this page showed (the cart's version and lines, the delivery's price and
/// the details' version), so the order is exactly this one or none.
struct CheckoutReviewView: PageView {
    let cart: Cart
    let cartVersion: Int64
    let delivery: OrderDelivery
    let detailsVersion: Int64
    /// Whether the shopper was sent back here because something changed since they last looked.
    let changed: Bool

    var total: Money { cart.subtotal + delivery.price }

    static let templateName = "checkout-review"
    static let mustacheFields: MustacheFields<CheckoutReviewView> = [
        "lines": .list { review in review.cart.items.filter(\.isAvailable).map(ReviewLineView.init) },
        "itemCountText": .text { Badge.itemCountText($0.cart.itemCount) },
        "hasUnavailable": .bool { $0.cart.items.contains { !$0.isAvailable } },
        "subtotal": .money(\.cart.subtotal),
        "deliveryPrice": .text { $0.delivery.price == .zero ? "Free" : $0.delivery.price.formatted },
        "total": .money(\.total),
        "address": .view { DeliveryAddressView(delivery: $0.delivery) },
        "cartVersion": .int { Int($0.cartVersion) },
        "shownLines": .text { ShownLinesField.encode(OrderPlacement.lines(of: $0.cart)) },
        "deliveryCents": .text { String($0.delivery.price.cents) },
        "detailsVersion": .text { String($0.detailsVersion) },
        "payment": .text(\.delivery.payment.rawValue),
        "changed": .bool(\.changed),
    ]
}

/// A line as Review shows it.
struct ReviewLineView: MustacheView {
    let item: Cart.Item

    static let mustacheFields: MustacheFields<ReviewLineView> = [
        "name": .text(\.item.product.name),
        "quantity": .int(\.item.quantity),
        "unitPrice": .money(\.item.product.price),
        "lineTotal": .money(\.item.lineTotal),
    ]
}

/// Where an order goes, how, and how it is paid: Review, the confirmation, the order's page.
struct DeliveryAddressView: MustacheView {
    let delivery: OrderDelivery

    static let mustacheFields: MustacheFields<DeliveryAddressView> = [
        "name": .text(\.delivery.details.name),
        "isCollected": .bool(\.delivery.isCollected),
        "addressLine1": .text(\.delivery.details.addressLine1),
        "addressLine2": .text(\.delivery.details.addressLine2),
        "hasAddressLine2": .bool { !$0.delivery.details.addressLine2.isEmpty },
        "cityLine": .text(\.delivery.details.cityLine),
        "country": .text(\.delivery.details.countryName),
        "email": .text(\.delivery.details.email),
        "phone": .text(\.delivery.details.phone),
        "hasPhone": .bool { !$0.delivery.details.phone.isEmpty },
        "methodName": .text(\.delivery.methodName),
        "deliveryPrice": .text { $0.delivery.price == .zero ? "Free" : $0.delivery.price.formatted },
        "howToPay": .text(\.delivery.howToPay),
    ]
}
