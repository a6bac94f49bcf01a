import SQLite

/// Cart changes in SQLite, by shopper. Every change is one write transaction that also stores
/// a new shopper and client, so a cart change and who it belongs to land together or not at all.
struct SQLiteCartStore: CartStore {
    let pool: SQLiteStoragePool

    func add(productID: Int64, quantity: Int, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange {
        let quantity = Cart.clamp(quantity)
        return try change(for: session, at: now, ifVersion: expectedVersion) { db in
            // A new line goes after every line already there, even one stored in this same
            // second (the starter cart's lines are stamped `now * 1000 + offset`).
            try db.execute(
                """
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
                VALUES (?1, ?2, ?3, max(?4, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = ?1), 0)))
                ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity = min(quantity + ?3, ?5)
                """,
                [session.shopperID, productID, quantity, now * 1000, Cart.quantityRange.upperBound]
            )
        }
    }

    func setQuantity(_ quantity: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange {
        try change(for: session, at: now, ifVersion: expectedVersion) { db in
            try db.execute(
                "UPDATE cart_items SET quantity = ? WHERE shopper_id = ? AND product_id = ?",
                [Cart.clamp(quantity), session.shopperID, productID]
            )
            if db.changes == 0 { throw CartError.notInCart }
        }
    }

    func adjustQuantity(by delta: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange {
        let bounded = Cart.boundedDelta(delta)
        return try change(for: session, at: now, ifVersion: expectedVersion) { db in
            // Relative to the quantity stored now, in one statement: two "Increase" presses on
            // pages that showed the same quantity both count.
            try db.execute(
                "UPDATE cart_items SET quantity = min(max(quantity + ?, ?), ?) WHERE shopper_id = ? AND product_id = ?",
                [bounded, Cart.quantityRange.lowerBound, Cart.quantityRange.upperBound, session.shopperID, productID]
            )
            if db.changes == 0 { throw CartError.notInCart }
        }
    }

    func remove(productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange {
        try change(for: session, at: now, ifVersion: expectedVersion) { db in
            try db.execute("DELETE FROM cart_items WHERE shopper_id = ? AND product_id = ?", [session.shopperID, productID])
        }
    }

    func restore(productID: Int64, quantity: Int, for session: Session, at now: Int64) throws -> CartChange {
        try change(for: session, at: now) { db in
            try db.execute(
                """
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
                VALUES (?, ?, ?, max(?, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = ?), 0)))
                ON CONFLICT (shopper_id, product_id) DO NOTHING
                """,
                [session.shopperID, productID, Cart.clamp(quantity), now * 1000, session.shopperID]
            )
            if db.changes == 0 { throw CartError.alreadyInCart }
        }
    }

    func placeOrder(_ placement: OrderPlacement, for session: Session, at now: Int64) throws -> PlacedOrder {
        // Writes take turns, so an intent found missing here stays missing until this commits.
        try pool.write(storing: session, at: now) { db in
            if let placed = try db.fetchValue(
                "SELECT id FROM orders WHERE shopper_id = ? AND intent = ?", [session.shopperID, placement.intent.key], as: Int64.self
            ) {
                return PlacedOrder(orderID: placed, change: nil)
            }
            // Lines whose product is no longer for sale are left out of the order (the cart page says so).
            let lines = try db.fetchAll(
                """
                SELECT c.product_id, p.price_cents, c.quantity FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.shopper_id = ? AND p.active
                """,
                [session.shopperID]
            ) { OrderPlacement.ShownLine(productID: try $0.int64(0), unitPrice: try $0.get(1), quantity: try $0.int(2)) }
            try placement.check(lines) {
                try db.fetchValue("SELECT EXISTS (SELECT 1 FROM cart_items WHERE shopper_id = ?)", [session.shopperID], as: Bool.self) ?? false
            }
            var columns = "shopper_id, placed_at, intent"
            var values = [session.shopperID.databaseValue, now.databaseValue, placement.intent.key.databaseValue]
            if let delivery = placement.delivery {
                let method = try SQLiteDeliveryMethodStore.methods(in: db, where: "code = ?", [delivery.details.method]).first
                guard placement.deliveryMatches(method, subtotal: OrderPlacement.subtotal(of: lines)) else { throw CartError.changedSinceShown }
                columns += ", " + DeliveryDetailsColumns.orderDeliveryList
                values += DeliveryDetailsColumns.orderTexts(of: delivery).map(\.databaseValue) + [delivery.price.databaseValue]
            }
            try db.execute(
                "INSERT INTO orders (\(columns)) VALUES (?\(String(repeating: ", ?", count: values.count - 1)))", StatementArguments(values)
            )
            let orderID = db.lastInsertRowID
            try db.execute("INSERT INTO order_states (order_id, state, at) VALUES (?, 'placed', ?)", [orderID, now])
            try db.execute(
                """
                INSERT INTO order_lines (order_id, position, product_id, name, unit_price_cents, quantity)
                SELECT ?, row_number() OVER (ORDER BY c.added_at, c.product_id), p.id, p.name, p.price_cents, c.quantity
                FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.shopper_id = ? AND p.active
                """,
                [orderID, session.shopperID]
            )
            try db.execute("DELETE FROM cart_items WHERE shopper_id = ?", [session.shopperID])
            return PlacedOrder(orderID: orderID, change: try Self.bumpVersion(in: db, for: session))
        }
    }

    /// Runs `body` in a write transaction that first stores the session if needed, and then
    /// bumps the shopper's cart version and reads it with the new count, all before committing.
    /// With `expectedVersion`, a cart at any other version is refused before `body` runs.
    private func change(
        for session: Session, at now: Int64, ifVersion expectedVersion: Int64? = nil, _ body: (Database) throws -> Void
    ) throws -> CartChange {
        try pool.write(storing: session, at: now) { db in
            if let expectedVersion {
                // The write is the only one of the process: nothing can change the version
                // between this read and the commit.
                let version = try db.fetchValue("SELECT cart_version FROM shoppers WHERE id = ?", [session.shopperID], as: Int64.self) ?? 0
                if version != expectedVersion { throw CartError.staleVersion }
            }
            try body(db)
            return try Self.bumpVersion(in: db, for: session)
        }
    }

    /// Bumps the shopper's cart version and reads it with the new count, inside a change's transaction.
    private static func bumpVersion(in db: Database, for session: Session) throws -> CartChange {
        // The version is the shopper's: changes through any of its clients count on from
        // one another. No RETURNING: SQLite buffers its rows
        // in a temporary table, which costs more than reading the version with the count.
        try db.execute("UPDATE shoppers SET cart_version = cart_version + 1 WHERE id = ?", [session.shopperID])
        // The badge counts what checkout would buy: lines no longer for sale are left out.
        let change = try db.withFirstRow(
            """
            SELECT (SELECT cart_version FROM shoppers WHERE id = ?1), coalesce(sum(c.quantity), 0)
            FROM cart_items c JOIN products p ON p.id = c.product_id
            WHERE c.shopper_id = ?1 AND p.active
            """,
            [session.shopperID]
        ) { row in
            CartChange(itemCount: try row.int(1), version: try row.isNull(0) ? 0 : try row.int64(0))
        }
        return change ?? CartChange(itemCount: 0, version: 0)
    }
}
