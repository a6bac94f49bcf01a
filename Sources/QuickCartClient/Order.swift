import Foundation

/// A placed order.
public struct Order: Hashable, Sendable, Codable, Identifiable {
    /// The order's number, a string (`"1042"`).
    public let id: String
    /// When it was placed.
    public let placedAt: Date
    /// Where the order is in its life now.
    public let state: OrderState
    /// Every state it has been in, oldest first.
    public let history: [OrderStateChange]
    /// What was bought.
    public let lines: [OrderLine]
    /// The sum of the line totals.
    public let subtotal: Money
    /// Where it goes; `nil` for an order placed before checkout asked for delivery.
    public let delivery: OrderDelivery?
    /// How it goes and is paid; `nil` as ``delivery`` is.
    public let deliveryMethod: OrderDeliveryMethod?
    /// The subtotal plus delivery.
    public let total: Money
}

/// A state an order is in: ``placed``, ``paid``, ``shipped``, ``delivered`` or ``cancelled``.
/// A state this version does not know yet still decodes, by its name.
public struct OrderState: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The state's name in the API (`"paid"`).
    public let rawValue: String

    /// The state named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Placed, not paid yet.
    public static let placed = OrderState(rawValue: "placed")
    /// Paid, not shipped yet.
    public static let paid = OrderState(rawValue: "paid")
    /// On its way.
    public static let shipped = OrderState(rawValue: "shipped")
    /// Delivered.
    public static let delivered = OrderState(rawValue: "delivered")
    /// Cancelled (see the history's `reason`).
    public static let cancelled = OrderState(rawValue: "cancelled")

    /// The state's name.
    public var description: String { rawValue }
}

/// One step of an order's history.
public struct OrderStateChange: Hashable, Sendable, Codable {
    /// The state the order moved to.
    public let state: OrderState
    /// When it moved.
    public let at: Date
    /// The parcel's tracking address, when the order was shipped with one.
    public let tracking: String?
    /// The carrier it was shipped with, when named.
    public let carrier: String?
    /// Why, when the order was cancelled.
    public let reason: String?
}

/// One product of an order, at the price it was bought for.
public struct OrderLine: Hashable, Sendable, Codable {
    /// The product's id, or `nil` when the product is no longer in the catalog.
    public let productId: String?
    /// The product's name when it was bought.
    public let name: String
    /// The price it was bought at.
    public let unitPrice: Money
    /// How many.
    public let quantity: Int
    /// The unit price times the quantity.
    public let lineTotal: Money
}

/// What checkout answered.
public struct CheckoutResult: Hashable, Sendable {
    /// The order placed.
    public let order: Order
    /// Whether this is the answer to an earlier checkout with the same idempotency key: no
    /// new order was placed.
    public let isReplay: Bool
}
