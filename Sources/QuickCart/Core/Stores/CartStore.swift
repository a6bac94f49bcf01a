import SQLite

/// What a committed cart change leaves behind, for the live badge.
public struct CartChange: Sendable, Equatable {
    /// The cart's new item count (sum of quantities).
    public let itemCount: Int
    /// Increases with every change of the session's cart, so listeners can drop stale news.
    public let version: Int64
}

/// Why a cart change was refused. Nothing is written when one is thrown.
public enum CartError: Error, Equatable {
    /// The product is not in this session's cart.
    case notInCart
    /// There is nothing to check out.
    case emptyCart
}

/// Carts and orders in SQLite. Every change is one transaction that also stores a new
/// session, so a cart change and the session it belongs to land together or not at all.
public final class CartStore: Sendable {
    private let pool: DatabasePool
    private let catalog: Catalog
    private let sessions: SessionStore
    /// What a session that has not changed anything yet sees.
    private let starterCart: Cart

    init(pool: DatabasePool, catalog: Catalog, sessions: SessionStore, starterCart: Cart) {
        self.pool = pool
        self.catalog = catalog
        self.sessions = sessions
        self.starterCart = starterCart
    }

    // MARK: - Reading

    /// The session's cart, in the order items were added.
    public func cart(for session: Session) throws -> Cart {
        guard session.isStored else { return starterCart }
        let rows = try pool.withConnection { db in
            try db.fetchAll(
                "SELECT product_id, quantity FROM cart_items WHERE session_id = ? ORDER BY added_at, product_id",
                session.id
            ) { (try $0.int64(0), try $0.int(1)) }
        }
        return Cart(items: rows.compactMap { productID, quantity in
            catalog.product(id: productID).map { Cart.Item(product: $0, quantity: quantity) }
        })
    }

    /// The badge's number for the session.
    public func itemCount(for session: Session) throws -> Int {
        guard session.isStored else { return starterCart.itemCount }
        return try pool.withConnection { db in try Self.itemCount(in: db, sessionID: session.id) }
    }

    /// The badge's number with the cart's version, read together.
    public func badge(for session: Session) throws -> CartChange {
        guard session.isStored else { return CartChange(itemCount: starterCart.itemCount, version: 0) }
        return try pool.withConnection { db in
            try db.fetchOne(
                "SELECT (\(Self.itemCountSQL)), cart_version FROM sessions WHERE id = ?1",
                session.id
            ) { CartChange(itemCount: try $0.int(0), version: try $0.int64(1)) } ?? CartChange(itemCount: 0, version: 0)
        }
    }

    /// The session's orders, newest first.
    public func orders(for session: Session) throws -> [Order] {
        guard session.isStored else { return [] }
        let rows = try pool.read { db in
            try db.fetchAll(
                """
                SELECT o.id, o.placed_at, l.name, l.unit_price_cents, l.quantity
                FROM orders o JOIN order_lines l ON l.order_id = o.id
                WHERE o.session_id = ? ORDER BY o.id DESC, l.position
                """,
                session.id
            ) { row in
                (id: try row.int64(0), placedAt: try row.int64(1),
                 line: Order.Line(name: try row.string(2), unitPrice: try row.get(3), quantity: try row.int(4)))
            }
        }
        var orders: [Order] = []
        for row in rows {
            if orders.last?.id == row.id {
                orders[orders.count - 1].lines.append(row.line)
            } else {
                orders.append(Order(id: row.id, placedAt: row.placedAt, lines: [row.line]))
            }
        }
        return orders
    }

    // MARK: - Changing

    /// Adds one of `productID`, or one more if it is there already, up to the maximum.
    public func add(productID: Int64, for session: Session, at now: Int64) throws -> CartChange {
        try change(for: session, at: now) { db in
            // A new line goes after every line already there, even one stored in this same
            // second (the starter cart's lines are stamped `now * 1000 + offset`).
            try db.execute(
                """
                INSERT INTO cart_items (session_id, product_id, quantity, added_at)
                VALUES (?, ?, 1, max(?, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE session_id = ?), 0)))
                ON CONFLICT (session_id, product_id) DO UPDATE SET quantity = min(quantity + 1, ?)
                """,
                session.id, productID, now * 1000, session.id, Cart.quantityRange.upperBound
            )
        }
    }

    /// Sets the quantity of a product already in the cart, clamped into ``Cart/quantityRange``.
    /// - Throws: ``CartError/notInCart`` when the product is not in this session's cart.
    public func setQuantity(_ quantity: Int, of productID: Int64, for session: Session, at now: Int64) throws -> CartChange {
        try change(for: session, at: now) { db in
            try db.execute(
                "UPDATE cart_items SET quantity = ? WHERE session_id = ? AND product_id = ?",
                Cart.clamp(quantity), session.id, productID
            )
            if db.changes == 0 { throw CartError.notInCart }
        }
    }

    /// Removes a product from the cart; removing one that is not there changes nothing.
    public func remove(productID: Int64, for session: Session, at now: Int64) throws -> CartChange {
        try change(for: session, at: now) { db in
            try db.execute("DELETE FROM cart_items WHERE session_id = ? AND product_id = ?", session.id, productID)
        }
    }

    /// Turns the cart into an order at today's prices and empties the cart, in one transaction.
    /// - Returns: The order's id and the emptied cart's change.
    /// - Throws: ``CartError/emptyCart`` when there is nothing to check out.
    public func checkout(for session: Session, at now: Int64) throws -> (orderID: Int64, change: CartChange) {
        var orderID: Int64 = 0
        let change = try change(for: session, at: now) { db in
            let lines = try db.fetchValue("SELECT count(*) FROM cart_items WHERE session_id = ?", session.id, as: Int.self) ?? 0
            guard lines > 0 else { throw CartError.emptyCart }
            try db.execute("INSERT INTO orders (session_id, placed_at) VALUES (?, ?)", session.id, now)
            orderID = db.lastInsertRowID
            try db.execute(
                """
                INSERT INTO order_lines (order_id, position, product_id, name, unit_price_cents, quantity)
                SELECT ?, row_number() OVER (ORDER BY c.added_at, c.product_id), p.id, p.name, p.price_cents, c.quantity
                FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.session_id = ?
                """,
                orderID, session.id
            )
            try db.execute("DELETE FROM cart_items WHERE session_id = ?", session.id)
        }
        return (orderID, change)
    }

    /// Runs `body` in a write transaction that first stores the session if needed, and then
    /// bumps the session's cart version and reads the new count, all before committing.
    private func change(for session: Session, at now: Int64, _ body: (Database) throws -> Void) throws -> CartChange {
        try pool.write { db in
            try sessions.store(session, in: db, at: now)
            try body(db)
            // last_seen is left to the session's own touch: setting it here would rewrite the
            // sessions_by_last_seen index on every change.
            let version = try db.fetchValue(
                "UPDATE sessions SET cart_version = cart_version + 1 WHERE id = ? RETURNING cart_version", session.id, as: Int64.self
            ) ?? 0
            return CartChange(itemCount: try Self.itemCount(in: db, sessionID: session.id), version: version)
        }
    }

    /// How many items a session's cart holds, in SQL: its one parameter is the session id.
    private static let itemCountSQL = "SELECT coalesce(sum(quantity), 0) FROM cart_items WHERE session_id = ?1"

    private static func itemCount(in db: Database, sessionID: String) throws -> Int {
        try db.fetchValue(itemCountSQL, sessionID, as: Int.self) ?? 0
    }
}
