import Postgres

/// Every session's orders, in PostgreSQL.
struct PostgresOrderFeed: OrderFeed {
    /// The advisory lock a checkout or a move holds from taking its row's id until it commits,
    /// so ids of orders and of moves commit in order across the cluster: "QCORDERS".
    static let orderLockKey: Int64 = 0x5143_4F52_4445_5253

    let pool: PostgresStoragePool

    func placedOrders(afterID: Int64, placedSince: Int64?, limit: Int) throws -> [Order] {
        try pool.write { connection in
            try PostgresOrderStore.orders(
                in: connection, where: "o.id IN (SELECT id FROM orders WHERE id > $1 AND placed_at >= $2 ORDER BY id LIMIT $3)",
                [afterID.postgresValue, (placedSince ?? Int64.min).postgresValue, Int64(max(0, limit)).postgresValue], newestFirst: false
            )
        }
    }

    func lastMoveID() throws -> Int64 {
        try pool.withConnection { connection in
            try connection.fetchValue("SELECT coalesce(max(id), 0)::bigint FROM order_states", as: Int64.self) ?? 0
        }
    }

    func movedOrders(afterMoveID: Int64, placedSince: Int64?, limit: Int) throws -> (orders: [Order], lastMoveID: Int64) {
        try pool.write { connection in
            let last = try connection.fetchValue(
                """
                SELECT max(id) FROM (SELECT id FROM order_states WHERE id > $1 AND state <> 'placed' ORDER BY id LIMIT $2) AS moves
                """,
                afterMoveID, Int64(max(0, limit)), as: Int64?.self
            ) ?? nil
            guard let last else { return ([], afterMoveID) }
            let orders = try PostgresOrderStore.orders(
                in: connection,
                where: "o.id IN (SELECT order_id FROM order_states WHERE id > $1 AND id <= $2 AND state <> 'placed') AND o.placed_at >= $3",
                [afterMoveID.postgresValue, last.postgresValue, (placedSince ?? Int64.min).postgresValue], newestFirst: false
            )
            return (orders, last)
        }
    }

    func moveNews(afterMoveID: Int64, limit: Int) throws -> [OrderMoveNews] {
        try pool.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT m.id, m.order_id, m.state, coalesce(s.live_key, '')
                FROM order_states m JOIN orders o ON o.id = m.order_id LEFT JOIN shoppers s ON s.id = o.shopper_id
                WHERE m.id > $1 AND m.state <> 'placed' ORDER BY m.id LIMIT $2
                """,
                afterMoveID, Int64(max(0, limit))
            ) { row in
                OrderMoveNews(
                    id: try row.int64(0), orderID: try row.int64(1), state: OrderState(rawValue: try row.string(2)) ?? .placed,
                    shopperLiveKey: try row.string(3)
                )
            }
        }
    }
}
