/// Every placed order of the whole shop, for the operator (`quickcart orders export`).
public protocol OrderFeed: Sendable {
    /// Orders with an id above `afterID`, placed at or after `placedSince` (seconds since 1970,
    /// UTC) when given, oldest first, at most `limit` of them, each with all its lines and history.
    ///
    /// Follow new orders by passing the last id seen as `afterID` again and again. (On a store
    /// where ids can commit out of order, the store itself must make this hold.)
    func placedOrders(afterID: Int64, placedSince: Int64?, limit: Int) throws -> [Order]

    /// The id of the newest move of any order (placings included); 0 when there is none.
    /// Moves' ids grow and commit in order, as orders' ids do.
    func lastMoveID() throws -> Int64

    /// The orders moved (after their placing) by the moves with ids above `afterMoveID`, at
    /// most `limit` moves, oldest move first, each order once with its whole history, placed at
    /// or after `placedSince` when given; and the id of the last of those moves (`afterMoveID`
    /// when there were none).
    func movedOrders(afterMoveID: Int64, placedSince: Int64?, limit: Int) throws -> (orders: [Order], lastMoveID: Int64)
}
