/// Why an order was not moved. Nothing is written when one is thrown.
public enum OrderMoveError: Error, Equatable, CustomStringConvertible {
    /// No order has this number.
    case unknownOrder(Int64)
    /// The order is in `from`, and ``OrderState/canMove(to:)`` refuses `to` from there.
    case notAllowed(orderID: Int64, from: OrderState, to: OrderState)

    public var description: String {
        switch self {
        case .unknownOrder(let id): return "there is no order \(id)"
        case .notAllowed(let id, let from, let to):
            let allowed = from.next.map(\.rawValue)
            let then = allowed.isEmpty ? "\(from.rawValue) is final" : "from \(from.rawValue) it can become \(allowed.joined(separator: " or "))"
            return "order \(id) is \(from.rawValue); it cannot become \(to.rawValue) (\(then))"
        }
    }
}

/// A move that committed: the order as it is now, and whose it is, for live news.
public struct OrderMove: Sendable, Equatable {
    /// The order with its whole history, the move last.
    public let order: Order
    /// The live key of the shopper who placed it (``Session/shopperLiveKey``).
    public let shopperLiveKey: String
}

/// An order's life after it is placed: the operator's moves (`quickcart orders mark`).
public protocol OrderLifeStore: Sendable {
    /// Records `change` as order `orderID`'s next move, in one transaction that reads the
    /// order's state and checks ``OrderState/canMove(to:)``, so two operators moving one order
    /// at once cannot both move it from the same state. On a store several instances share, the
    /// news is sent to all of them in the same transaction.
    /// - Throws: ``OrderMoveError`` (nothing written) when there is no such order or the move
    ///   is not allowed from its state.
    func move(orderID: Int64, by change: OrderStateChange) throws -> OrderMove
}
