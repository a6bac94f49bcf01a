import Postgres

/// Codes that bring another device into a shopper's cart, in PostgreSQL. A join is one
/// transaction that locks the code's row first, so two joins with one code, through any
/// instances, cannot both win; then the joining client's row, then the rows of both carts'
/// shoppers (as cart changes take them), so no change of either cart is lost in between.
struct PostgresJoinCodeStore: JoinCodeStore {
    let pool: PostgresStoragePool

    /// Whether the client that showed code `j` is still a device of its shopper: a code dies
    /// with its device's sign-out (or the device's move to another cart), so a signed-out
    /// thief cannot come back in with a code shown before.
    private static let shownByMember = "EXISTS (SELECT 1 FROM clients cl WHERE cl.id = j.client_id AND cl.shopper_id = j.shopper_id AND cl.spent_at IS NULL)"

    func createCode(hash: String, nonce: String, for session: Session, at now: Int64) throws {
        // For the cart the client is in now; none for a client a sign-out overtook.
        try pool.write(asClientOf: session, storingAt: now) { connection, shopperID in
            try connection.execute("DELETE FROM join_codes WHERE client_id = $1 AND used_at IS NULL", session.clientID)
            try connection.execute(query: """
                INSERT INTO join_codes (code_hash, nonce, shopper_id, client_id, created_at, expires_at)
                VALUES (\(hash), \(nonce), \(shopperID), \(session.clientID), \(now), \(now + JoinCode.lifetime))
                """)
        }
    }

    func newestCode(ofClient clientID: String) throws -> StoredJoinCode? {
        try pool.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT nonce, created_at, expires_at, used_at, wrong_tries FROM join_codes
                WHERE client_id = $1 ORDER BY created_at DESC, used_at IS NOT NULL LIMIT 1
                """,
                clientID
            ) { row in
                StoredJoinCode(
                    nonce: try row.string(0), createdAt: try row.int64(1), expiresAt: try row.int64(2),
                    usedAt: try row.isNull(3) ? nil : try row.int64(3), wrongTries: try row.int(4)
                )
            }.first
        }
    }

    func preview(hash: String, at now: Int64) throws -> JoinPreview? {
        try pool.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT s.display_name, s.id,
                       (SELECT coalesce(sum(c.quantity), 0)::bigint FROM cart_items c JOIN products p ON p.id = c.product_id
                        WHERE c.shopper_id = s.id AND p.active)
                FROM join_codes j JOIN shoppers s ON s.id = j.shopper_id
                WHERE j.code_hash = $1 AND j.used_at IS NULL AND j.expires_at > $2 AND j.wrong_tries < $3 AND \(Self.shownByMember)
                """,
                hash, now, JoinCode.voidingWrongTries
            ) { row in
                JoinPreview(displayName: try row.string(0), itemCount: try row.int(2), shopperID: try row.string(1))
            }.first
        }
    }

    func join(hash: String, for session: Session, renamingTo newClientID: String?, at now: Int64) throws -> JoinOutcome {
        try pool.write { connection in
            let code = try connection.fetchAll(
                """
                SELECT shopper_id, client_id, used_at IS NULL AND expires_at > $2 AND wrong_tries < $3 AND \(Self.shownByMember), code_hash
                FROM join_codes j WHERE code_hash = $1 FOR UPDATE OF j
                """,
                hash, now, JoinCode.voidingWrongTries
            ) { row in (shopper: try row.string(0), client: try row.string(1), isLive: try row.bool(2), hash: try row.string(3)) }.first
            // The index found it by equality; the comparison that decides is constant-time.
            guard let code, ConstantTime.equals(code.hash, hash) else {
                // Nobody can tell which code a wrong one was aimed at: every live code saw it.
                try connection.execute(
                    "UPDATE join_codes SET wrong_tries = wrong_tries + 1 WHERE used_at IS NULL AND expires_at > $1 AND wrong_tries < $2",
                    now, JoinCode.voidingWrongTries
                )
                return .refused
            }
            // The client as stored now, locked: the session may have been read before another
            // join of it committed (a second press of the same button), or before a sign-out of
            // it did, which leaves nothing to join (and the code as it was).
            let client = try connection.fetchOne("SELECT shopper_id, spent_at IS NOT NULL FROM clients WHERE id = $1 FOR UPDATE", session.clientID) { row in
                (shopper: try row.get(0, as: String?.self), isSpent: try row.bool(1))
            }
            if client?.isSpent == true { throw StorageError.signedOut }
            let current = client?.shopper ?? nil
            if current == code.shopper { return .alreadyJoined }
            guard code.isLive else { return .refused }
            // Both carts' rows, in one order for every join: a change of either that is in
            // flight commits first, and its lines are merged; one that comes later waits, then
            // finds its client moved and goes to the shopper's cart (see PostgresCartStore).
            _ = try connection.execute(
                "SELECT id FROM shoppers WHERE id = $1 OR id = $2 ORDER BY id FOR UPDATE", code.shopper, current ?? code.shopper
            )
            // A sign-out of the showing device may have committed while this waited.
            guard try connection.fetchValue(
                "SELECT EXISTS (SELECT 1 FROM clients WHERE id = $1 AND shopper_id = $2 AND spent_at IS NULL)", code.client, code.shopper, as: Bool.self
            ) == true else { return .refused }
            let oldVersion = try current.flatMap { old in
                try connection.fetchValue("SELECT cart_version FROM shoppers WHERE id = $1", old, as: Int64.self)
            } ?? 0
            // Past every version the joining client saw of the cart it leaves, so an app's
            // If-Match from that cart never matches this one.
            let version = try connection.fetchValue(
                "UPDATE shoppers SET cart_version = greatest(cart_version, $2) + 1 WHERE id = $1 RETURNING cart_version",
                code.shopper, oldVersion, as: Int64.self
            ) ?? 0
            var merged = 0
            if let old = current {
                // A cart the browser shares with other devices stays theirs: only a cart of its
                // own (with its searches) is merged; and a cart never changed (version 0: the
                // starter cart of a browser stored for its theme or name) holds nothing it chose.
                let ownsCart = try connection.fetchValue(
                    "SELECT NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = $1 AND id <> $2 AND spent_at IS NULL)", old, session.clientID, as: Bool.self
                ) ?? false
                if ownsCart { merged = try Self.merge(old, into: code.shopper, in: connection, at: now, lines: oldVersion > 0) }
                if let newClientID {
                    try connection.execute(
                        "INSERT INTO clients (id, shopper_id, created_at, last_seen, device) SELECT $1, $2, created_at, $3, device FROM clients WHERE id = $4",
                        newClientID, code.shopper, now, session.clientID
                    )
                    try connection.execute("UPDATE clients SET shopper_id = NULL, spent_at = $1 WHERE id = $2", now, session.clientID)
                } else {
                    try connection.execute("UPDATE clients SET shopper_id = $1 WHERE id = $2", code.shopper, session.clientID)
                }
                try connection.execute("DELETE FROM shoppers WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = $1)", old)
            } else {
                if newClientID != nil {
                    // The id its cookie would have been stored under is spent, first: that cookie
                    // (its first change's grace included) reaches nothing of the shopper joined. A
                    // sign-out of it racing the join writes the same row, which no one could lock
                    // before it was there: whichever inserts it first wins, the other is refused.
                    let marked = try connection.fetchAll(
                        """
                        INSERT INTO clients (id, shopper_id, created_at, last_seen, spent_at) VALUES ($1, NULL, $2, $2, $2)
                        ON CONFLICT (id) DO NOTHING RETURNING id
                        """,
                        session.clientID, now
                    ) { row in try row.string(0) }
                    if marked.isEmpty { throw StorageError.signedOut }
                }
                try connection.execute(
                    """
                    INSERT INTO clients (id, shopper_id, created_at, last_seen, device) VALUES ($1, $2, $3, $3, $4)
                    ON CONFLICT (id) DO NOTHING
                    """,
                    newClientID ?? session.clientID, code.shopper, now, session.device
                )
                try PostgresSearchHistoryStore.addWaiting(session.waitingSearches, to: code.shopper, at: now, in: connection)
            }
            try connection.execute("UPDATE join_codes SET used_at = $1 WHERE code_hash = $2", now, hash)
            // A Review page shown before the join names a version of one cart or the other; sent
            // now, it must not find an order of either by it (it reviews again instead).
            try connection.execute("UPDATE orders SET intent = NULL WHERE shopper_id = $1 AND intent LIKE 'review:%'", code.shopper)
            let state = try connection.fetchAll(
                """
                SELECT s.live_key,
                       (SELECT coalesce(sum(c.quantity), 0)::bigint FROM cart_items c JOIN products p ON p.id = c.product_id
                        WHERE c.shopper_id = s.id AND p.active)
                FROM shoppers s WHERE s.id = $1
                """,
                code.shopper
            ) { row in (liveKey: try row.string(0), count: try row.int(1)) }.first
            guard let state else { return .refused }
            // The news goes out with the commit, to every instance.
            _ = try connection.fetchValue(
                "SELECT pg_notify($1, $2)::text", PostgresBadgeRelay.channel, "\(state.liveKey) \(version) \(state.count)", as: String.self
            )
            return .joined(
                mergedItems: merged, change: CartChange(itemCount: state.count, version: version), shopperID: code.shopper,
                shopperLiveKey: state.liveKey, showingClientID: code.client
            )
        }
    }

    /// Adds the lines of `old`'s cart to `shopper`'s (after the shopper's own, in their own
    /// order; a product in both gets the two quantities added, clamped), and its recent searches;
    /// gives `shopper` its orders, and its saved delivery details unless `shopper` has its own.
    /// Without `lines`, the cart's lines stay behind.
    /// - Returns: How many items the merge really added.
    private static func merge(_ old: String, into shopper: String, in connection: PostgresConnection, at now: Int64, lines: Bool) throws -> Int {
        let merged = lines ? try mergeLines(of: old, into: shopper, in: connection, at: now) : 0
        try connection.execute(
            """
            INSERT INTO recent_searches (shopper_id, query, searched_at)
            SELECT $1, query, searched_at FROM recent_searches WHERE shopper_id = $2 ON CONFLICT DO NOTHING
            """,
            shopper, old
        )
        try connection.execute(
            """
            INSERT INTO delivery_details (shopper_id, version, saved_at, \(DeliveryDetailsColumns.list))
            SELECT $1, version, saved_at, \(DeliveryDetailsColumns.list) FROM delivery_details WHERE shopper_id = $2
            ON CONFLICT DO NOTHING
            """,
            shopper, old
        )
        // Each order stays the record it is, now listed with the shopper's; an intent the
        // shopper's orders hold too is dropped from the browser's (one order per intent and
        // shopper). Review intents all go at the join's end; what this keeps apart is app keys.
        try connection.execute(
            "UPDATE orders SET intent = NULL WHERE shopper_id = $1 AND intent IN (SELECT intent FROM orders WHERE shopper_id = $2)",
            old, shopper
        )
        try connection.execute("UPDATE orders SET shopper_id = $1 WHERE shopper_id = $2", shopper, old)
        return merged
    }

    /// Adds `old`'s cart lines to `shopper`'s; returns how many items that really added (a line
    /// meets the shopper's at most at the cap).
    private static func mergeLines(of old: String, into shopper: String, in connection: PostgresConnection, at now: Int64) throws -> Int {
        let merged = try connection.fetchValue(
            """
            SELECT coalesce(sum(least(c.quantity, $3 - coalesce(t.quantity, 0))), 0)::bigint
            FROM cart_items c JOIN products p ON p.id = c.product_id
            LEFT JOIN cart_items t ON t.shopper_id = $2 AND t.product_id = c.product_id
            WHERE c.shopper_id = $1 AND p.active
            """,
            old, shopper, Cart.quantityRange.upperBound, as: Int.self
        ) ?? 0
        try connection.execute(
            """
            INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
            SELECT $1, product_id, quantity,
                   greatest($2::bigint, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = $1), 0))
                   + row_number() OVER (ORDER BY added_at, product_id)
            FROM cart_items WHERE shopper_id = $3
            ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity = least(cart_items.quantity + excluded.quantity, $4)
            """,
            shopper, now * 1000, old, Cart.quantityRange.upperBound
        )
        return merged
    }
}
