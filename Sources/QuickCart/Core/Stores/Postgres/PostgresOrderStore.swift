import Postgres

/// Orders in PostgreSQL: a shopper's, with their lines and histories (`order_states`).
struct PostgresOrderStore: OrderStore {
    let pool: PostgresStoragePool

    func orders(for session: Session) throws -> [Order] {
        guard session.isStored else { return [] }
        return try pool.write { connection in
            try Self.orders(in: connection, where: "o.shopper_id = $1", [session.shopperID.postgresValue], newestFirst: true)
        }
    }

    func order(id: Int64, for session: Session) throws -> Order? {
        guard session.isStored else { return nil }
        return try pool.write { connection in
            try Self.orders(
                in: connection, where: "o.id = $1 AND o.shopper_id = $2", [id.postgresValue, session.shopperID.postgresValue], newestFirst: true
            ).first
        }
    }

    func order(intent: OrderIntent, for session: Session) throws -> Order? {
        guard session.isStored else { return nil }
        return try pool.write { connection in
            try Self.orders(
                in: connection, where: "o.shopper_id = $1 AND o.intent = $2", [session.shopperID.postgresValue, intent.key.postgresValue], newestFirst: true
            ).first
        }
    }

    /// The orders `condition` (on `orders o`) picks, with lines (and the slugs of products still
    /// in the catalog) and histories, by id. Run inside one transaction, so lines and histories
    /// agree (a move commits whole; reads see it whole or not at all within one statement, and
    /// the history is read after the lines, so it is never older than they are).
    static func orders(in connection: PostgresConnection, where condition: String, _ arguments: [PostgresValue], newestFirst: Bool) throws -> [Order] {
        let direction = newestFirst ? "DESC" : ""
        let rows = try connection.fetchAll(
            """
            SELECT \(StoredOrderRows.lineColumns)
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            LEFT JOIN products p ON p.id = l.product_id
            WHERE \(condition) ORDER BY o.id \(direction), l.position
            """,
            arguments: arguments
        ) { row in try StoredOrderRows.line(from: row) }
        let histories = try connection.fetchAll(
            """
            SELECT \(StoredOrderRows.stateColumns)
            FROM orders o JOIN order_states s ON s.order_id = o.id WHERE \(condition) ORDER BY s.id
            """,
            arguments: arguments
        ) { row in try StoredOrderRows.move(from: row) }
        let deliveries = try connection.fetchAll(
            """
            SELECT o.id, o.delivery_cents, \(DeliveryDetailsColumns.orderDeliveryPrefixed)
            FROM orders o WHERE \(condition) AND o.delivery_method IS NOT NULL
            """,
            arguments: arguments
        ) { row in try StoredOrderRows.delivery(from: row) }
        return StoredOrderRows.orders(lines: rows, moves: histories, deliveries: deliveries)
    }
}
