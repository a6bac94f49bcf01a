/// Placed orders (``CartStore/checkout(for:at:)`` places them). Orders are records of sales:
/// they outlive the session that placed them.
public protocol OrderStore: Sendable {
    /// The session's shopper's orders, newest first, each line as it was when placed, each with
    /// its history.
    func orders(for session: Session) throws -> [Order]

    /// Order `id` with its lines and history when the session's shopper placed it; `nil` when
    /// there is no such order or another shopper placed it (the two are never told apart).
    func order(id: Int64, for session: Session) throws -> Order?

    /// The order the session's shopper placed for `intent`, or `nil`: what a repeated intent
    /// (a client's retry with its `Idempotency-Key`) answers without anything else being read.
    func order(intent: OrderIntent, for session: Session) throws -> Order?
}
