/// What placing an order did: the order its intent has, and whether this call placed it.
public struct PlacedOrder: Sendable, Equatable {
    /// The order placed for the intent.
    public let orderID: Int64
    /// The emptied cart, for the live badge, when this call placed the order; `nil` when the
    /// intent had its order already and nothing was changed.
    public let change: CartChange?

    /// The order `orderID`, placed now when `change` is given.
    public init(orderID: Int64, change: CartChange?) {
        self.orderID = orderID
        self.change = change
    }

    /// Whether this call placed the order (rather than finding it placed).
    public var isNew: Bool { change != nil }
}
