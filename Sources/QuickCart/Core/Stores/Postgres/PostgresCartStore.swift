import Postgres

/// Cart changes in PostgreSQL, by shopper. Every change is one transaction that stores a new
/// shopper and client, takes the shopper's row lock by bumping its cart version, changes the
/// lines, reads the new count and sends it to every instance (`NOTIFY`, delivered only if the
/// transaction commits).
///
/// Taking the shopper's row first serialises the changes of one cart, through any of its
/// clients, across instances: each
/// counts from what the one before it committed, the count read is exact, and two changes of
/// one cart never lock rows in opposite orders.
struct PostgresCartStore: CartStore {
    let pool: PostgresStoragePool

    func currentChanges(forLiveKeys liveKeys: [String]) throws -> [String: CartChange] {
        guard !liveKeys.isEmpty else { return [:] }
        let rows = try pool.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT s.live_key, s.cart_version,
                       (SELECT coalesce(sum(c.quantity), 0)::bigint FROM cart_items c JOIN products p ON p.id = c.product_id
                        WHERE c.shopper_id = s.id AND p.active)
                FROM shoppers s WHERE s.live_key = ANY($1::text[])
                """,
                Self.arrayLiteral(liveKeys)
            ) { row in (try row.string(0), CartChange(itemCount: try row.int(2), version: try row.int64(1))) }
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// A PostgreSQL array literal of texts, each quoted.
    private static func arrayLiteral(_ texts: [String]) -> String {
        let quoted = texts.map { text in
            var escaped = "\""
            for character in text {
                if character == "\\" || character == "\"" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }

    func add(productID: Int64, quantity: Int, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange {
        let quantity = Cart.clamp(quantity)
        return try change(for: session, at: now, ifVersion: expectedVersion) { connection, shopperID in
            // A new line goes after every line already there, even one stored in this same
            // second (the starter cart's lines are stamped `now * 1000 + offset`). A line
            // holding this post's key already, or at the maximum already, is left alone.
            let written = try connection.execute(
                """
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at, change_key)
                VALUES ($1, $2, $5, greatest($3::bigint, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = $1), 0)), $6)
                ON CONFLICT (shopper_id, product_id) DO UPDATE
                SET quantity = least(cart_items.quantity + $5, $4), change_key = coalesce($6, cart_items.change_key)
                WHERE cart_items.quantity < $4 AND ($6::text IS NULL OR cart_items.change_key IS DISTINCT FROM $6)
                """,
                shopperID, productID, now * 1000, Cart.quantityRange.upperBound, quantity, key?.text
            )
            return try Self.lineWritten(written, in: connection, of: shopperID, productID, key: key)
        }
    }

    func setQuantity(_ quantity: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange {
        try change(for: session, at: now, ifVersion: expectedVersion) { connection, shopperID in
            let changed = try connection.execute(
                """
                UPDATE cart_items SET quantity = $1, change_key = coalesce($4, change_key)
                WHERE shopper_id = $2 AND product_id = $3 AND quantity <> $1 AND ($4::text IS NULL OR change_key IS DISTINCT FROM $4)
                """,
                Cart.clamp(quantity), shopperID, productID, key?.text
            )
            return try Self.lineWritten(changed, in: connection, of: shopperID, productID, key: key)
        }
    }

    func adjustQuantity(by delta: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange {
        let bounded = Cart.boundedDelta(delta)
        return try change(for: session, at: now, ifVersion: expectedVersion) { connection, shopperID in
            // Relative to the quantity stored now, in one statement: presses on pages that
            // showed the same quantity all count, whichever instance they reach.
            let changed = try connection.execute(
                """
                UPDATE cart_items SET quantity = least(greatest(quantity + $1, $2), $3), change_key = coalesce($6, change_key)
                WHERE shopper_id = $4 AND product_id = $5 AND quantity <> least(greatest(quantity + $1, $2), $3)
                AND ($6::text IS NULL OR change_key IS DISTINCT FROM $6)
                """,
                bounded, Cart.quantityRange.lowerBound, Cart.quantityRange.upperBound, shopperID, productID, key?.text
            )
            return try Self.lineWritten(changed, in: connection, of: shopperID, productID, key: key)
        }
    }

    /// What a write of one line (that skips a line holding `key`, and one the change would
    /// leave as it is) did, from the `changed` rows. Only when it changed none is the line
    /// looked for, to tell a replay from a change of nothing and from a line not there. A replay
    /// wins: the line holds the key of the press that changed it last, whatever its resend
    /// would do now.
    /// - Throws: ``CartError/notInCart`` when the shopper's cart has no such line.
    private static func lineWritten(_ changed: Int, in connection: PostgresConnection, of shopperID: String, _ productID: Int64, key: ChangeKey?) throws -> Written {
        if changed > 0 { return .changed }
        guard let holdsKey = try connection.fetchValue(
            "SELECT coalesce(change_key = $3::text, false) FROM cart_items WHERE shopper_id = $1 AND product_id = $2",
            shopperID, productID, key?.text, as: Bool.self
        ) else { throw CartError.notInCart }
        return holdsKey ? .replayed : .unchanged
    }

    func remove(productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange {
        try change(for: session, at: now, ifVersion: expectedVersion) { connection, shopperID in
            try connection.execute("DELETE FROM cart_items WHERE shopper_id = $1 AND product_id = $2", shopperID, productID) > 0
                ? .changed : .unchanged
        }
    }

    func restore(productID: Int64, quantity: Int, for session: Session, at now: Int64) throws -> CartChange {
        try change(for: session, at: now) { connection, shopperID in
            let inserted = try connection.execute(
                """
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
                VALUES ($1, $2, $3, greatest($4::bigint, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = $1), 0)))
                ON CONFLICT (shopper_id, product_id) DO NOTHING
                """,
                shopperID, productID, Cart.clamp(quantity), now * 1000
            )
            if inserted == 0 { throw CartError.alreadyInCart }
            return .changed
        }
    }

    func placeOrder(_ placement: OrderPlacement, for session: Session, at now: Int64) throws -> PlacedOrder {
        try ClientMoves.placing(placement, for: session) { session in try placeOrder(placement, asClientOf: session, at: now) }
    }

    private func placeOrder(_ placement: OrderPlacement, asClientOf session: Session, at now: Int64) throws -> PlacedOrder {
        try pool.write(storing: session, at: now) { connection in
            // The shopper's row lock first, as every change of the cart takes it: a second
            // placing of the same intent waits here for the first to commit, then finds its order.
            _ = try connection.fetchValue("SELECT id FROM shoppers WHERE id = $1 FOR UPDATE", session.shopperID, as: String.self)
            // A browser that joined another cart meanwhile checks out the cart it shares now.
            if let newShopper = try Self.newShopper(of: session, in: connection) {
                throw ClientMoves.ClientMoved(session: session.onShopper(newShopper.id, liveKey: newShopper.liveKey))
            }
            if let placed = try connection.fetchValue(
                "SELECT id FROM orders WHERE shopper_id = $1 AND intent = $2", session.shopperID, placement.intent.key, as: Int64.self
            ) {
                return PlacedOrder(orderID: placed, change: nil)
            }
            // Lines whose product is no longer for sale are left out of the order (the cart page says so).
            let lines = try connection.fetchAll(
                """
                SELECT c.product_id, p.price_cents, c.quantity FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.shopper_id = $1 AND p.active
                """,
                session.shopperID
            ) { OrderPlacement.ShownLine(productID: try $0.int64(0), unitPrice: try $0.get(1), quantity: try $0.int(2)) }
            try placement.check(lines) {
                try connection.fetchValue("SELECT EXISTS (SELECT 1 FROM cart_items WHERE shopper_id = $1)", session.shopperID, as: Bool.self) ?? false
            }
            if let delivery = placement.delivery {
                let method = try PostgresDeliveryMethodStore.methods(in: connection, where: "code = $1", [delivery.details.method.postgresValue]).first
                guard placement.deliveryMatches(method, subtotal: OrderPlacement.subtotal(of: lines)) else { throw CartError.changedSinceShown }
            }
            // Orders take their ids one at a time across the cluster, each holding this lock until
            // it commits, so ids commit in order and `quickcart orders export --follow`, which
            // follows the largest id seen, misses none.
            _ = try connection.fetchValue("SELECT pg_advisory_xact_lock($1)::text", PostgresOrderFeed.orderLockKey, as: String.self)
            var columns = "shopper_id, placed_at, intent"
            var values: [PostgresValue] = [session.shopperID.postgresValue, now.postgresValue, placement.intent.key.postgresValue]
            if let delivery = placement.delivery {
                columns += ", " + DeliveryDetailsColumns.orderDeliveryList
                values += DeliveryDetailsColumns.orderTexts(of: delivery).map(\.postgresValue) + [delivery.price.postgresValue]
            }
            let orderID = try connection.fetchValue(
                "INSERT INTO orders (\(columns)) VALUES (\(values.indices.map { "$\($0 + 1)" }.joined(separator: ", "))) RETURNING id",
                arguments: values, as: Int64.self
            ) ?? 0
            try connection.execute("INSERT INTO order_states (order_id, state, at) VALUES ($1, 'placed', $2)", orderID, now)
            try connection.execute(
                """
                INSERT INTO order_lines (order_id, position, product_id, name, unit_price_cents, quantity)
                SELECT $1, row_number() OVER (ORDER BY c.added_at, c.product_id), p.id, p.name, p.price_cents, c.quantity
                FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.shopper_id = $2 AND p.active
                """,
                orderID, session.shopperID
            )
            try connection.execute("DELETE FROM cart_items WHERE shopper_id = $1", session.shopperID)
            let version = try Self.bumpVersion(in: connection, for: session)
            return PlacedOrder(orderID: orderID, change: try Self.countAndNotify(in: connection, version: version, for: session))
        }
    }

    /// Runs `body` in a transaction that first stores the shopper if needed and takes its row
    /// lock (the version bump), then reads the new count and notifies every instance, all
    /// before committing; `body` gets the id of the shopper whose cart it changes. The
    /// transaction is rerun if it loses a race, so `body` must only write to the database.
    /// With `expectedVersion`, a cart that was at any other version before the bump (which
    /// holds the row's lock to the commit) is refused, rolling back. When `body` wrote nothing
    /// (a replay, or a change of nothing) the transaction rolls back, bump and news with it,
    /// answering the cart as it read it: the version stays, and a session never stored stays
    /// so (a client is stored only by its first change). A client that joined another shopper
    /// after the session was read changes that shopper's cart, the one it shares now: a join
    /// locks the cart it merges, so the client is read again once the lock is held, and a
    /// change finding it moved runs again on its new shopper.
    private func change(
        for session: Session, at now: Int64, ifVersion expectedVersion: Int64? = nil, _ body: (PostgresConnection, String) throws -> Written
    ) throws -> CartChange {
        try ClientMoves.following(session) { session in
            do {
                return try runChange(for: session, at: now, ifVersion: expectedVersion, body)
            } catch let unchanged as Unchanged {
                return unchanged.change
            }
        }
    }

    private func runChange(
        for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, _ body: (PostgresConnection, String) throws -> Written
    ) throws -> CartChange {
        try pool.write(storing: session, at: now) { connection in
            let version = try Self.bumpVersion(in: connection, for: session)
            if let newShopper = try Self.newShopper(of: session, in: connection) {
                throw ClientMoves.ClientMoved(session: session.onShopper(newShopper.id, liveKey: newShopper.liveKey))
            }
            if let expectedVersion, version - 1 != expectedVersion { throw CartError.staleVersion }
            let written = try body(connection, session.shopperID)
            guard written == .changed else {
                let asItIs = try Self.countAndNotify(in: connection, version: version - 1, for: session)
                throw Unchanged(change: CartChange(itemCount: asItIs.itemCount, version: asItIs.version, isReplay: written == .replayed))
            }
            return try Self.countAndNotify(in: connection, version: version, for: session)
        }
    }

    /// The shopper `session`'s client belongs to now, when it is not the session's: the client
    /// joined another cart after the request read the session. Read after the bump, in a
    /// statement of its own, so it sees a join that held the session's shopper until it committed.
    /// - Throws: ``StorageError/signedOut`` for a client signed out since the session was read.
    private static func newShopper(of session: Session, in connection: PostgresConnection) throws -> (id: String, liveKey: String)? {
        try connection.fetchOne(
            """
            SELECT s.id, s.live_key FROM clients c LEFT JOIN shoppers s ON s.id = c.shopper_id
            WHERE c.id = $1 AND c.shopper_id IS DISTINCT FROM $2
            """,
            session.clientID, session.shopperID
        ) { row in
            // Only a spent client names no shopper.
            if try row.isNull(0) { throw StorageError.signedOut }
            return (id: try row.string(0), liveKey: try row.string(1))
        }
    }

    /// What a change's statements did: changed the cart, or wrote nothing because the line holds
    /// the change's key already, or because the change would change nothing.
    private enum Written {
        case changed
        case replayed
        case unchanged
    }

    /// A change that wrote nothing, rolled back with what it read: the cart as it was.
    private struct Unchanged: Error {
        let change: CartChange
    }

    /// Bumps the shopper's cart version, which takes (or holds) its row lock.
    private static func bumpVersion(in connection: PostgresConnection, for session: Session) throws -> Int64 {
        try connection.fetchValue(
            "UPDATE shoppers SET cart_version = cart_version + 1 WHERE id = $1 RETURNING cart_version", session.shopperID, as: Int64.self
        ) ?? 0
    }

    /// Reads the cart's new count and sends it to every instance, at commit.
    private static func countAndNotify(in connection: PostgresConnection, version: Int64, for session: Session) throws -> CartChange {
        // The count and the news in one round trip: the payload is built around the count.
        // The badge counts what checkout would buy: lines no longer for sale are left out.
        let news = PostgresBadgeRelay.payloadParts(version: version, for: session)
        let count = try connection.fetchValue(
            """
            SELECT items.count, pg_notify($2::text, $3::text || items.count || $4::text)
            FROM (
                SELECT coalesce(sum(c.quantity), 0)::bigint AS count FROM cart_items c JOIN products p ON p.id = c.product_id
                WHERE c.shopper_id = $1 AND p.active
            ) AS items
            """,
            session.shopperID, PostgresBadgeRelay.channel, news.beforeCount, news.afterCount, as: Int.self
        ) ?? 0
        return CartChange(itemCount: count, version: version)
    }
}
