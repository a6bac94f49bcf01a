import Postgres

/// Orders' moves in PostgreSQL: the order's row is locked while its state is read and the move
/// appended, so two moves of one order at once take turns and the second sees the first.
struct PostgresOrderLifeStore: OrderLifeStore {
    let pool: PostgresStoragePool

    func move(orderID: Int64, by change: OrderStateChange) throws -> OrderMove {
        try pool.write { connection in
            guard let placed = try connection.fetchOne("SELECT shopper_id, payment FROM orders WHERE id = $1 FOR UPDATE", orderID, map: { row in
                (shopperID: try row.get(0, as: String?.self), payment: try row.get(1, as: String?.self))
            }) else { throw OrderMoveError.unknownOrder(orderID) }
            let state = try connection.fetchValue(
                "SELECT state FROM order_states WHERE order_id = $1 ORDER BY id DESC LIMIT 1", orderID, as: String.self
            )
            try OrderMoveError.check(
                orderID: orderID, from: state.flatMap(OrderState.init(rawValue:)) ?? .placed, to: change.state,
                paidBy: placed.payment.flatMap(DeliveryMethod.Payment.init(rawValue:))
            )
            // Moves' ids commit in order, as orders' do (see PostgresOrderFeed.orderLockKey).
            _ = try connection.fetchValue("SELECT pg_advisory_xact_lock($1)::text", PostgresOrderFeed.orderLockKey, as: String.self)
            try connection.execute(query: """
                INSERT INTO order_states (order_id, state, at, carrier, tracking_url, reason)
                VALUES (\(orderID), \(change.state.rawValue), \(change.at), \(change.carrier), \(change.trackingURL), \(change.reason))
                """)
            // An order whose shopper is gone (its row's ON DELETE SET NULL) tells no one.
            let liveKey = try placed.shopperID.flatMap {
                try connection.fetchValue("SELECT live_key FROM shoppers WHERE id = $1", $0, as: String.self)
            } ?? ""
            if !liveKey.isEmpty {
                // Sent on commit, to every instance (this one's own operator process included).
                try connection.execute(
                    "SELECT pg_notify($1::text, $2::text)", PostgresBadgeRelay.channel,
                    PostgresBadgeRelay.orderPayload(liveKey: liveKey, orderID: orderID, state: change.state)
                )
            }
            let order = try PostgresOrderStore.orders(in: connection, where: "o.id = $1", [orderID.postgresValue], newestFirst: false).first
            return OrderMove(order: order ?? Order(id: orderID, placedAt: change.at, lines: []), shopperLiveKey: liveKey)
        }
    }
}
