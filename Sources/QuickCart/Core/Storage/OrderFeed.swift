/// Every placed order of the whole shop, for the operator (`quickcart orders export`).
public protocol OrderFeed: Sendable {
    /// Orders with an id above `afterID`, placed at or after `placedSince` (seconds since 1970,
    /// UTC) when given, oldest first, at most `limit` of them, each with all its lines.
    ///
    /// Follow new orders by passing the last id seen as `afterID` again and again. (On a store
    /// where ids can commit out of order, the store itself must make this hold.)
    func placedOrders(afterID: Int64, placedSince: Int64?, limit: Int) throws -> [Order]
}
