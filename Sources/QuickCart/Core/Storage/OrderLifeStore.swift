/// Why an order was not moved. Nothing is written when one is thrown.
public enum OrderMoveError: Error, Equatable, CustomStringConvertible {
    /// No order has this number.
    case unknownOrder(Int64)
    /// The order is in `from`, and ``OrderState/canMove(to:paidBy:)`` refuses `to` from there;
    /// `allowed` are the moves it allows.
    case notAllowed(orderID: Int64, from: OrderState, to: OrderState, allowed: [OrderState])
    /// The order is paid by bank transfer and not marked paid, so it cannot be shipped yet.
    case awaitsBankTransfer(orderID: Int64)

    public var description: String {
        switch self {
        case .unknownOrder(let id): return "there is no order \(id)"
        case .notAllowed(let id, let from, let to, let allowed):
            let then = allowed.isEmpty ? "\(from.rawValue) is final" : "from \(from.rawValue) it can become \(allowed.map(\.rawValue).joined(separator: " or "))"
            return "order \(id) is \(from.rawValue); it cannot become \(to.rawValue) (\(then))"
        case .awaitsBankTransfer(let id):
            return "order \(id) is paid by bank transfer and not marked paid yet; once the money arrives: quickcart orders mark \(id) paid"
        }
    }
}

extension OrderMoveError {
    /// Throws why order `orderID`, in `current` and to be paid `payment`, may not move to
    /// `state`; returns when it may (``OrderState/canMove(to:paidBy:)``).
    static func check(orderID: Int64, from current: OrderState, to state: OrderState, paidBy payment: DeliveryMethod.Payment?) throws {
        guard current.canMove(to: state) else {
            throw notAllowed(orderID: orderID, from: current, to: state, allowed: current.next.filter { current.canMove(to: $0, paidBy: payment) })
        }
        guard current.canMove(to: state, paidBy: payment) else { throw awaitsBankTransfer(orderID: orderID) }
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
    /// order's state and payment and checks ``OrderState/canMove(to:paidBy:)``, so two operators moving one order
    /// at once cannot both move it from the same state. On a store several instances share, the
    /// news is sent to all of them in the same transaction.
    /// - Throws: ``OrderMoveError`` (nothing written) when there is no such order or the move
    ///   is not allowed from its state (or, for a bank transfer's, before it is paid).
    func move(orderID: Int64, by change: OrderStateChange) throws -> OrderMove
}
