/// Where an order is in its life. QuickCart takes no payment itself, so every order starts
/// ``placed`` (awaiting payment) and the operator moves it on (`quickcart orders mark`).
///
/// The moves a shop makes (``canMove(to:)``): placed → paid, shipped or cancelled; paid →
/// shipped or cancelled; shipped → delivered. Delivered and cancelled are final.
/// placed → shipped is allowed because a shop that takes payment on delivery (the carrier
/// collects it) ships unpaid orders: refusing it would make the owner mark an order paid
/// before it was. An order on its way cannot be cancelled: the parcel has left, so what
/// happens next (delivered, or returned and refunded outside QuickCart) is the carrier's.
public enum OrderState: String, Sendable, Hashable, CaseIterable {
    case placed
    case paid
    case shipped
    case delivered
    case cancelled

    /// The states an order in this state may move to, in the order a shop meets them.
    public var next: [OrderState] {
        switch self {
        case .placed: [.paid, .shipped, .cancelled]
        case .paid: [.shipped, .cancelled]
        case .shipped: [.delivered]
        case .delivered, .cancelled: []
        }
    }

    /// Whether an order in this state may move to `state`: the shop's one rule.
    public func canMove(to state: OrderState) -> Bool {
        next.contains(state)
    }

    /// How pages and the operator's messages name the state.
    public var label: String {
        switch self {
        case .placed: "Placed (awaiting payment)"
        case .paid: "Paid"
        case .shipped: "Shipped"
        case .delivered: "Delivered"
        case .cancelled: "Cancelled"
        }
    }
}
