import SQLite

/// Every session's orders, in SQLite.
struct SQLiteOrderFeed: OrderFeed {
    let pool: SQLiteStoragePool

    func placedOrders(afterID: Int64, placedSince: Int64?, limit: Int) throws -> [Order] {
        // SQLite commits one writer at a time and ids only grow, so an id seen means every
        // smaller id is committed too: following by id misses nothing. The same holds for moves.
        try pool.read { db in
            try SQLiteOrderStore.orders(
                in: db, where: "o.id IN (SELECT id FROM orders WHERE id > ? AND placed_at >= ? ORDER BY id LIMIT ?)",
                [afterID, placedSince ?? Int64.min, max(0, limit)], newestFirst: false
            )
        }
    }

    func lastMoveID() throws -> Int64 {
        try pool.withConnection { db in try db.fetchValue("SELECT coalesce(max(id), 0) FROM order_states", as: Int64.self) ?? 0 }
    }

    func movedOrders(afterMoveID: Int64, placedSince: Int64?, limit: Int) throws -> (orders: [Order], lastMoveID: Int64) {
        try pool.read { db in
            let moves = try db.fetchAll(
                "SELECT id, order_id FROM order_states WHERE id > ? AND state <> 'placed' ORDER BY id LIMIT ?", [afterMoveID, max(0, limit)]
            ) { row in (id: try row.int64(0), orderID: try row.int64(1)) }
            guard let last = moves.last else { return ([], afterMoveID) }
            let orders = try SQLiteOrderStore.orders(
                in: db, where: "o.id IN (SELECT DISTINCT order_id FROM order_states WHERE id > ? AND id <= ? AND state <> 'placed') AND o.placed_at >= ?",
                [afterMoveID, last.id, placedSince ?? Int64.min], newestFirst: false
            )
            return (orders, last.id)
        }
    }

    func moveNews(afterMoveID: Int64, limit: Int) throws -> [OrderMoveNews] {
        try pool.withConnection { db in
            try db.fetchAll(
                """
                SELECT m.id, m.order_id, m.state, coalesce(s.live_key, '')
                FROM order_states m JOIN orders o ON o.id = m.order_id LEFT JOIN shoppers s ON s.id = o.shopper_id
                WHERE m.id > ? AND m.state <> 'placed' ORDER BY m.id LIMIT ?
                """,
                [afterMoveID, max(0, limit)]
            ) { row in
                OrderMoveNews(
                    id: try row.int64(0), orderID: try row.int64(1), state: OrderState(rawValue: try row.string(2)) ?? .placed,
                    shopperLiveKey: try row.string(3)
                )
            }
        }
    }
}
