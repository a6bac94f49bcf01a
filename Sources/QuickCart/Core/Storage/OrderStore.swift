/// Placed orders (``CartStore/checkout(for:at:)`` places them). Orders are records of sales:
/// they outlive the session that placed them.
public protocol OrderStore: Sendable {
    /// The session's orders, newest first, each line as it was when placed.
    func orders(for session: Session) throws -> [Order]
}
