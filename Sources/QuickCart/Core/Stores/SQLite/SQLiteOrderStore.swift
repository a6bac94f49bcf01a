import SQLite

/// Orders in SQLite: a shopper's, with their lines and histories (`order_states`).
struct SQLiteOrderStore: OrderStore {
    let pool: SQLiteStoragePool

    func orders(for session: Session) throws -> [Order] {
        guard session.isStored else { return [] }
        return try pool.read { db in
            try Self.orders(in: db, where: "o.shopper_id = ?", [session.shopperID], newestFirst: true)
        }
    }

    func order(id: Int64, for session: Session) throws -> Order? {
        guard session.isStored else { return nil }
        return try pool.read { db in
            try Self.orders(in: db, where: "o.id = ? AND o.shopper_id = ?", [id, session.shopperID], newestFirst: true).first
        }
    }

    func order(intent: OrderIntent, for session: Session) throws -> Order? {
        guard session.isStored else { return nil }
        return try pool.read { db in
            try Self.orders(in: db, where: "o.shopper_id = ? AND o.intent = ?", [session.shopperID, intent.key], newestFirst: true).first
        }
    }

    /// The orders `condition` (on `orders o`) picks, with lines (and the slugs of products still
    /// in the catalog) and histories, by id. Run inside one read, so lines and histories agree.
    static func orders(in db: Database, where condition: String, _ arguments: StatementArguments, newestFirst: Bool) throws -> [Order] {
        let direction = newestFirst ? "DESC" : ""
        let rows = try db.fetchAll(
            """
            SELECT \(StoredOrderRows.lineColumns)
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            LEFT JOIN products p ON p.id = l.product_id
            WHERE \(condition) ORDER BY o.id \(direction), l.position
            """,
            arguments
        ) { row in try StoredOrderRows.line(from: row) }
        let histories = try db.fetchAll(
            """
            SELECT \(StoredOrderRows.stateColumns)
            FROM orders o JOIN order_states s ON s.order_id = o.id WHERE \(condition) ORDER BY s.id
            """,
            arguments
        ) { row in try StoredOrderRows.move(from: row) }
        let deliveries = try db.fetchAll(
            """
            SELECT o.id, o.delivery_cents, \(DeliveryDetailsColumns.orderDeliveryPrefixed)
            FROM orders o WHERE \(condition) AND o.delivery_method IS NOT NULL
            """,
            arguments
        ) { row in try StoredOrderRows.delivery(from: row) }
        return StoredOrderRows.orders(lines: rows, moves: histories, deliveries: deliveries)
    }
}
