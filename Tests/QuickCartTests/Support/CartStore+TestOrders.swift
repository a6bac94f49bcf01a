@testable import QuickCart

extension CartStore {
    /// Places the cart as it is, at today's prices, under an intent never used before: for
    /// tests that need an order, not one intent's.
    func checkout(for session: Session, at now: Int64) throws -> (orderID: Int64, change: CartChange) {
        let intent = OrderIntent(idempotencyKey: "test-\(UInt64.random(in: 0 ... .max))")!
        let placed = try placeOrder(OrderPlacement(intent: intent), for: session, at: now)
        guard let change = placed.change else { throw CartError.alreadyInCart }
        return (placed.orderID, change)
    }
}
