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

    /// The moves (after their placing) with ids above `afterMoveID`, oldest first, at most
    /// `limit`, each with the live key of the shopper who placed the order, for live news.
    func moveNews(afterMoveID: Int64, limit: Int) throws -> [OrderMoveNews]
}

/// One move, as news for the shopper's open pages.
public struct OrderMoveNews: Sendable, Equatable {
    /// The move's id (see ``OrderFeed/lastMoveID()``).
    public let id: Int64
    public let orderID: Int64
    public let state: OrderState
    /// ``Session/shopperLiveKey`` of the shopper who placed the order.
    public let shopperLiveKey: String
}
