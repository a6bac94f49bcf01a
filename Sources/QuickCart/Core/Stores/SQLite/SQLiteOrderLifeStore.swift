import SQLite

/// Orders' moves in SQLite: one write transaction reads the state and appends the move, and
/// SQLite runs one writer at a time, so no two moves start from the same state.
struct SQLiteOrderLifeStore: OrderLifeStore {
    let pool: SQLiteStoragePool

    func move(orderID: Int64, by change: OrderStateChange) throws -> OrderMove {
        try pool.write { db in
            let owner = try db.fetchOne(
                """
                SELECT s.live_key, (SELECT state FROM order_states WHERE order_id = o.id ORDER BY id DESC LIMIT 1), o.payment
                FROM orders o LEFT JOIN shoppers s ON s.id = o.shopper_id WHERE o.id = ?
                """,
                [orderID]
            ) { row in (liveKey: try row.get(0) as String?, state: try row.get(1) as String?, payment: try row.get(2) as String?) }
            guard let owner else { throw OrderMoveError.unknownOrder(orderID) }
            try OrderMoveError.check(
                orderID: orderID, from: owner.state.flatMap(OrderState.init(rawValue:)) ?? .placed, to: change.state,
                paidBy: owner.payment.flatMap(DeliveryMethod.Payment.init(rawValue:))
            )
            try db.execute(
                "INSERT INTO order_states (order_id, state, at, carrier, tracking_url, reason) VALUES (?, ?, ?, ?, ?, ?)",
                [orderID, change.state.rawValue, change.at, change.carrier, change.trackingURL, change.reason]
            )
            let order = try SQLiteOrderStore.orders(in: db, where: "o.id = ?", [orderID], newestFirst: false).first
            return OrderMove(order: order ?? Order(id: orderID, placedAt: change.at, lines: []), shopperLiveKey: owner.liveKey ?? "")
        }
    }
}
