import Foundation

/// A placed order.
public struct Order: Hashable, Sendable, Codable, Identifiable {
    /// The order's number, a string (`"1042"`).
    public let id: String
    public let placedAt: Date
    /// Where the order is in its life now.
    public let state: OrderState
    /// Every state it has been in, oldest first.
    public let history: [OrderStateChange]
    public let lines: [OrderLine]
    public let total: Money
}

/// A state an order is in: ``placed``, ``paid``, ``shipped``, ``delivered`` or ``cancelled``.
/// A state this version does not know yet still decodes, by its name.
public struct OrderState: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let placed = OrderState(rawValue: "placed")
    public static let paid = OrderState(rawValue: "paid")
    public static let shipped = OrderState(rawValue: "shipped")
    public static let delivered = OrderState(rawValue: "delivered")
    public static let cancelled = OrderState(rawValue: "cancelled")

    public var description: String { rawValue }
}

/// One step of an order's history.
public struct OrderStateChange: Hashable, Sendable, Codable {
    public let state: OrderState
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
    public let name: String
    public let unitPrice: Money
    public let quantity: Int
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
