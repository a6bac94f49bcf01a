import SQLite

/// Cart changes in SQLite, by shopper. Every change is one write transaction that also stores
/// a new shopper and client, so a cart change and who it belongs to land together or not at all.
///
/// A cart's version is the greatest of the shopper's `cart_version` and its lines' `version`s.
/// A change stamps the line it writes with the new version and so writes that line's page
/// alone; a change that leaves no line carrying it (a remove, a checkout) raises `cart_version`.
struct SQLiteCartStore: CartStore {
    let pool: SQLiteStoragePool

    func currentChanges(forLiveKeys liveKeys: [String]) throws -> [String: CartChange] {
        guard !liveKeys.isEmpty else { return [:] }
        // The keys as one JSON array, one statement however many there are (live keys are hex,
        // so they need no escaping).
        let keys = "[" + liveKeys.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        return try pool.read { db in
            let rows = try db.fetchAll(
                """
                SELECT s.live_key,
                       max(s.cart_version, coalesce((SELECT max(c.version) FROM cart_items c WHERE c.shopper_id = s.id), 0)),
                       (SELECT coalesce(sum(c.quantity), 0) FROM cart_items c JOIN products p ON p.id = c.product_id
                        WHERE c.shopper_id = s.id AND p.active)
                FROM shoppers s WHERE s.live_key IN (SELECT value FROM json_each(?))
                """,
                [keys]
            ) { row in (try row.string(0), CartChange(itemCount: try row.int(2), version: try row.int64(1))) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    func add(productID: Int64, quantity: Int, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange {
        let quantity = Cart.clamp(quantity)
        return try change(for: session, at: now, ifVersion: expectedVersion) { db, shopperID, version in
            // A new line goes after every line already there, even one stored in this same
            // second (the starter cart's lines are stamped `now * 1000 + offset`). A line
            // holding this post's key already, or at the maximum already, is left alone.
            try db.execute(
                """
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at, version, change_key)
                VALUES (?1, ?2, ?3, max(?4, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = ?1), 0)), ?6, ?7)
                ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity = min(quantity + ?3, ?5), version = ?6, change_key = coalesce(?7, change_key)
                WHERE quantity < ?5 AND (?7 IS NULL OR change_key IS NOT ?7)
                """,
                [shopperID, productID, quantity, now * 1000, Cart.quantityRange.upperBound, version, key?.text]
            )
            return try Self.lineStamp(in: db, of: shopperID, productID, key: key)
        }
    }

    func setQuantity(_ quantity: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange {
        try change(for: session, at: now, ifVersion: expectedVersion) { db, shopperID, version in
            try db.execute(
                """
                UPDATE cart_items SET quantity = ?1, version = ?2, change_key = coalesce(?5, change_key)
                WHERE shopper_id = ?3 AND product_id = ?4 AND quantity != ?1 AND (?5 IS NULL OR change_key IS NOT ?5)
                """,
                [Cart.clamp(quantity), version, shopperID, productID, key?.text]
            )
            return try Self.lineStamp(in: db, of: shopperID, productID, key: key)
        }
    }

    func adjustQuantity(by delta: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange {
        let bounded = Cart.boundedDelta(delta)
        return try change(for: session, at: now, ifVersion: expectedVersion) { db, shopperID, version in
            // Relative to the quantity stored now, in one statement: two "Increase" presses on
            // pages that showed the same quantity both count.
            try db.execute(
                """
                UPDATE cart_items SET quantity = min(max(quantity + ?1, ?2), ?3), version = ?4, change_key = coalesce(?7, change_key)
                WHERE shopper_id = ?5 AND product_id = ?6 AND quantity != min(max(quantity + ?1, ?2), ?3) AND (?7 IS NULL OR change_key IS NOT ?7)
                """,
                [bounded, Cart.quantityRange.lowerBound, Cart.quantityRange.upperBound, version, shopperID, productID, key?.text]
            )
            return try Self.lineStamp(in: db, of: shopperID, productID, key: key)
        }
    }

    func remove(productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange {
        try change(for: session, at: now, ifVersion: expectedVersion) { db, shopperID, _ in
            try db.execute("DELETE FROM cart_items WHERE shopper_id = ? AND product_id = ?", [shopperID, productID])
            return db.changes == 0 ? .unchanged : .stampedNoLine
        }
    }

    func restore(productID: Int64, quantity: Int, for session: Session, at now: Int64) throws -> CartChange {
        try change(for: session, at: now) { db, shopperID, version in
            try db.execute(
                """
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at, version)
                VALUES (?1, ?2, ?3, max(?4, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = ?1), 0)), ?5)
                ON CONFLICT (shopper_id, product_id) DO NOTHING
                """,
                [shopperID, productID, Cart.clamp(quantity), now * 1000, version]
            )
            if db.changes == 0 { throw CartError.alreadyInCart }
            return .stampedALine
        }
    }

    func placeOrder(_ placement: OrderPlacement, for session: Session, at now: Int64) throws -> PlacedOrder {
        try ClientMoves.placing(placement, for: session) { session in try placeOrder(placement, asClientOf: session, at: now) }
    }

    private func placeOrder(_ placement: OrderPlacement, asClientOf session: Session, at now: Int64) throws -> PlacedOrder {
        // Writes take turns, so an intent found missing here stays missing until this commits.
        try pool.write(storing: session, at: now) { db in
            // A browser that joined another cart meanwhile checks out the cart it shares now.
            if let newShopper = try Self.clientCart(of: session, in: db).newShopper {
                throw ClientMoves.ClientMoved(session: session.onShopper(newShopper.id, liveKey: newShopper.liveKey))
            }
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
            let version = try Self.version(in: db, of: session.shopperID) + 1
            try db.execute("DELETE FROM cart_items WHERE shopper_id = ?", [session.shopperID])
            try Self.raiseVersion(to: version, in: db, of: session.shopperID)
            return PlacedOrder(orderID: orderID, change: CartChange(itemCount: 0, version: version))
        }
    }

    /// What a change's statements leave behind: whether a line now carries the new version, or
    /// nothing was written: the line holds the change's key already, or the change would
    /// change nothing.
    private enum Stamp {
        case stampedALine
        case stampedNoLine
        case replayed
        case unchanged
    }

    /// The cart version of the shopper `session`'s client belongs to, read with the client in
    /// one statement; and that shopper's id and live key when it is not the session's: the
    /// client joined another cart after the request read the session. A client not stored yet
    /// (or gone) reads the session's shopper.
    /// - Throws: ``StorageError/signedOut`` for a client signed out since the session was read.
    private static func clientCart(of session: Session, in db: Database) throws -> (version: Int64, newShopper: (id: String, liveKey: String)?) {
        let row = try db.withFirstRow(
            """
            SELECT max(s.cart_version, coalesce((SELECT max(c.version) FROM cart_items c WHERE c.shopper_id = s.id), 0)),
                   nullif(s.id, ?2), s.live_key, cl.shopper_id IS NULL
            FROM clients cl LEFT JOIN shoppers s ON s.id = cl.shopper_id WHERE cl.id = ?1
            """,
            [session.clientID, session.shopperID]
        ) { row in
            if try row.bool(3) { throw StorageError.signedOut }
            // The shopper's id and key are read only when they are news.
            return (version: try row.int64(0), newShopper: try row.isNull(1) ? nil : (id: try row.string(1), liveKey: try row.string(2)))
        }
        guard let row else { return (try version(in: db, of: session.shopperID), nil) }
        return (row.version, row.newShopper)
    }

    /// What a write of one line (that skips a line holding `key`, and one the change would
    /// leave as it is) left behind. Only when it changed no row is the line looked for, to tell
    /// a replay from a change of nothing and from a line not there. A replay wins: the line
    /// holds the key of the press that changed it last, whatever its resend would do now.
    /// - Throws: ``CartError/notInCart`` when the shopper's cart has no such line.
    private static func lineStamp(in db: Database, of shopperID: String, _ productID: Int64, key: ChangeKey?) throws -> Stamp {
        if db.changes > 0 { return .stampedALine }
        guard let holdsKey = try db.fetchValue(
            "SELECT coalesce(change_key = ?3, 0) FROM cart_items WHERE shopper_id = ?1 AND product_id = ?2", [shopperID, productID, key?.text], as: Bool.self
        ) else { throw CartError.notInCart }
        return holdsKey ? .replayed : .unchanged
    }

    /// A change that wrote nothing, rolled back with what it read: the cart as it was.
    private struct Unchanged: Error {
        let change: CartChange
    }

    /// Runs `body` in a write transaction that first stores the session if needed, with the
    /// id of the shopper whose cart it changes and the cart's next version for the line it
    /// writes; then records that version on the shopper if no line carries it, and reads the
    /// new count, all before committing. With `expectedVersion`, a cart at any other version is
    /// refused before `body` runs. When `body` wrote nothing (a replay, or a change of nothing),
    /// the transaction rolls back: the version stays, and a session never stored stays so (a
    /// client is stored only by its first change). A client that joined another shopper after
    /// the session was read changes that shopper's cart, the one it shares now: nothing it
    /// sends is written into a cart it has left.
    private func change(
        for session: Session, at now: Int64, ifVersion expectedVersion: Int64? = nil, _ body: (Database, String, Int64) throws -> Stamp
    ) throws -> CartChange {
        try ClientMoves.following(session) { session in
            do {
                return try runChange(for: session, at: now, ifVersion: expectedVersion, body)
            } catch let unchanged as Unchanged {
                return unchanged.change
            }
        }
    }

    private func runChange(for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, _ body: (Database, String, Int64) throws -> Stamp) throws -> CartChange {
        try pool.write(storing: session, at: now) { db in
            // The write is the only one of the process: nothing can change the version, or
            // move the client, between this read and the commit.
            let (current, newShopper) = try Self.clientCart(of: session, in: db)
            if let newShopper { throw ClientMoves.ClientMoved(session: session.onShopper(newShopper.id, liveKey: newShopper.liveKey)) }
            if let expectedVersion, current != expectedVersion { throw CartError.staleVersion }
            let next = current + 1
            let stamp = try body(db, session.shopperID, next)
            if stamp == .stampedNoLine {
                try Self.raiseVersion(to: next, in: db, of: session.shopperID)
            }
            // The badge counts what checkout would buy: lines no longer for sale are left out.
            let itemCount = try db.fetchValue(
                """
                SELECT coalesce(sum(c.quantity), 0) FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.shopper_id = ? AND p.active
                """,
                [session.shopperID], as: Int.self
            ) ?? 0
            switch stamp {
            case .stampedALine, .stampedNoLine: return CartChange(itemCount: itemCount, version: next)
            case .replayed: throw Unchanged(change: CartChange(itemCount: itemCount, version: current, isReplay: true))
            case .unchanged: throw Unchanged(change: CartChange(itemCount: itemCount, version: current))
            }
        }
    }

    /// The shopper's cart version: the greatest of its own and its lines' (0 for a shopper
    /// not stored). The version is the shopper's: changes through any of its clients count on
    /// from one another.
    static func version(in db: Database, of shopperID: String) throws -> Int64 {
        try db.fetchValue(
            """
            SELECT max(s.cart_version, coalesce((SELECT max(c.version) FROM cart_items c WHERE c.shopper_id = s.id), 0))
            FROM shoppers s WHERE s.id = ?
            """,
            [shopperID], as: Int64.self
        ) ?? 0
    }

    /// Records `version` on the shopper, for a change that leaves no line carrying it.
    static func raiseVersion(to version: Int64, in db: Database, of shopperID: String) throws {
        try db.execute("UPDATE shoppers SET cart_version = ? WHERE id = ?", [version, shopperID])
    }
}
