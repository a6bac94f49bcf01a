/// Where an order is in its life. QuickCart takes no payment itself, so every order starts
/// ``placed`` (awaiting payment) and the operator moves it on (`quickcart orders mark`).
///
/// The moves a shop makes (``canMove(to:)``): placed → paid, shipped or cancelled; paid →
/// shipped or cancelled; shipped → delivered. Delivered and cancelled are final.
/// placed → shipped is allowed because a shop that takes payment on delivery (the carrier
/// collects it) ships unpaid orders: refusing it would make the owner mark an order paid
/// before it was; an order paid by bank transfer is not shipped before it is marked paid
/// (``canMove(to:paidBy:)``), since no one collects that money later. An order on its way
/// cannot be cancelled: the parcel has left, so what happens next (delivered, or returned and
/// refunded outside QuickCart) is the carrier's.
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

    /// Whether an order in this state, to be paid `payment` (`nil` for an order placed before
    /// checkout asked), may move to `state`: ``canMove(to:)``, except that a bank transfer's
    /// order still awaiting it is not shipped.
    public func canMove(to state: OrderState, paidBy payment: DeliveryMethod.Payment?) -> Bool {
        canMove(to: state) && !(self == .placed && state == .shipped && payment == .bankTransfer)
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
