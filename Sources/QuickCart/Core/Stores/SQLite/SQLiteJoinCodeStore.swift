import SQLite

/// Codes that bring another device into a shopper's cart, in SQLite. A join is one write
/// transaction (SQLite runs them one at a time, so two joins with one code cannot both win).
struct SQLiteJoinCodeStore: JoinCodeStore {
    let pool: SQLiteStoragePool

    /// Whether the client that showed code `j` is still a device of its shopper: a code dies
    /// with its device's sign-out (or the device's move to another cart), so a signed-out
    /// thief cannot come back in with a code shown before.
    private static let shownByMember = "EXISTS (SELECT 1 FROM clients cl WHERE cl.id = j.client_id AND cl.shopper_id = j.shopper_id AND cl.spent_at IS NULL)"

    func createCode(hash: String, nonce: String, for session: Session, at now: Int64) throws {
        // For the cart the client is in now; none for a client a sign-out overtook.
        try pool.write(asClientOf: session, storingAt: now) { db, shopperID in
            try db.execute("DELETE FROM join_codes WHERE client_id = ? AND used_at IS NULL", [session.clientID])
            try db.execute(
                """
                INSERT INTO join_codes (code_hash, nonce, shopper_id, client_id, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [hash, nonce, shopperID, session.clientID, now, now + JoinCode.lifetime]
            )
        }
    }

    func newestCode(ofClient clientID: String) throws -> StoredJoinCode? {
        try pool.withConnection { db in
            try db.withFirstRow(
                """
                SELECT nonce, created_at, expires_at, used_at, wrong_tries FROM join_codes
                WHERE client_id = ? ORDER BY created_at DESC, used_at IS NOT NULL LIMIT 1
                """,
                [clientID]
            ) { row in
                StoredJoinCode(
                    nonce: try row.string(0), createdAt: try row.int64(1), expiresAt: try row.int64(2),
                    usedAt: try row.isNull(3) ? nil : try row.int64(3), wrongTries: try row.int(4)
                )
            }
        }
    }

    func preview(hash: String, at now: Int64) throws -> JoinPreview? {
        try pool.withConnection { db in
            try db.withFirstRow(
                """
                SELECT s.display_name, s.id,
                       (SELECT coalesce(sum(c.quantity), 0) FROM cart_items c JOIN products p ON p.id = c.product_id
                        WHERE c.shopper_id = s.id AND p.active)
                FROM join_codes j JOIN shoppers s ON s.id = j.shopper_id
                WHERE j.code_hash = ? AND j.used_at IS NULL AND j.expires_at > ? AND j.wrong_tries < ? AND \(Self.shownByMember)
                """,
                [hash, now, JoinCode.voidingWrongTries]
            ) { row in
                JoinPreview(displayName: try row.string(0), itemCount: try row.int(2), shopperID: try row.string(1))
            }
        }
    }

    func join(hash: String, for session: Session, renamingTo newClientID: String?, at now: Int64) throws -> JoinOutcome {
        try pool.write { db in
            let code = try db.withFirstRow(
                "SELECT shopper_id, client_id, used_at IS NULL AND expires_at > ? AND wrong_tries < ? AND \(Self.shownByMember), code_hash FROM join_codes j WHERE code_hash = ?",
                [now, JoinCode.voidingWrongTries, hash]
            ) { row in (shopper: try row.string(0), client: try row.string(1), isLive: try row.bool(2), hash: try row.string(3)) }
            // The index found it by equality; the comparison that decides is constant-time.
            guard let code, ConstantTime.equals(code.hash, hash) else {
                // Nobody can tell which code a wrong one was aimed at: every live code saw it.
                try db.execute(
                    "UPDATE join_codes SET wrong_tries = wrong_tries + 1 WHERE used_at IS NULL AND expires_at > ? AND wrong_tries < ?",
                    [now, JoinCode.voidingWrongTries]
                )
                return .refused
            }
            // The client as stored now: the session may have been read before another join of
            // it committed (a second press of the same button), or before a sign-out of it did,
            // which leaves nothing to join (and the code as it was).
            let client = try db.withFirstRow("SELECT shopper_id, spent_at IS NOT NULL FROM clients WHERE id = ?", [session.clientID]) { row in
                (shopper: try row.get(0, as: String?.self), isSpent: try row.bool(1))
            }
            if client?.isSpent == true { throw StorageError.signedOut }
            let current = client?.shopper ?? nil
            if current == code.shopper { return .alreadyJoined }
            guard code.isLive else { return .refused }
            var merged = 0
            // Past every version the joining client saw of the cart it leaves, so an app's
            // If-Match from that cart never matches this one.
            var version = try SQLiteCartStore.version(in: db, of: code.shopper) + 1
            if let old = current {
                let oldVersion = try SQLiteCartStore.version(in: db, of: old)
                version = max(version, oldVersion + 1)
                // A cart the browser shares with other devices stays theirs: only a cart of its
                // own (with its searches) is merged; and a cart never changed (version 0: the
                // starter cart of a browser stored for its theme or name) holds nothing it chose.
                let ownsCart = try db.fetchValue(
                    "SELECT NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = ? AND id <> ? AND spent_at IS NULL)", [old, session.clientID], as: Bool.self
                ) ?? false
                if ownsCart { merged = try Self.merge(old, into: code.shopper, in: db, at: now, lines: oldVersion > 0) }
                if let newClientID {
                    try db.execute(
                        "INSERT INTO clients (id, shopper_id, created_at, last_seen, device) SELECT ?, ?, created_at, ?, device FROM clients WHERE id = ?",
                        [newClientID, code.shopper, now, session.clientID]
                    )
                    try SQLiteSessionStore.spend(session.clientID, at: now, in: db)
                } else {
                    try db.execute("UPDATE clients SET shopper_id = ? WHERE id = ?", [code.shopper, session.clientID])
                }
                try db.execute("DELETE FROM shoppers WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = ?1)", [old])
            } else {
                try db.execute(
                    "INSERT OR IGNORE INTO clients (id, shopper_id, created_at, last_seen, device) VALUES (?, ?, ?, ?, ?)",
                    [newClientID ?? session.clientID, code.shopper, now, now, session.device]
                )
                try SQLiteSearchHistoryStore.addWaiting(session.waitingSearches, to: code.shopper, at: now, in: db)
                if newClientID != nil {
                    // The id its cookie would have been stored under is spent: that cookie (its
                    // first change's grace included) reaches nothing of the shopper joined.
                    try SQLiteSessionStore.spend(session.clientID, at: now, in: db)
                }
            }
            try db.execute("UPDATE join_codes SET used_at = ? WHERE code_hash = ?", [now, hash])
            // A Review page shown before the join names a version of one cart or the other; sent
            // now, it must not find an order of either by it (it reviews again instead).
            try db.execute("UPDATE orders SET intent = NULL WHERE shopper_id = ? AND intent LIKE 'review:%'", [code.shopper])
            // The lines merged in carry no new version (new ones are at 0): the join's goes on the shopper.
            try SQLiteCartStore.raiseVersion(to: version, in: db, of: code.shopper)
            let state = try db.withFirstRow(
                """
                SELECT s.cart_version, s.live_key,
                       (SELECT coalesce(sum(c.quantity), 0) FROM cart_items c JOIN products p ON p.id = c.product_id
                        WHERE c.shopper_id = s.id AND p.active)
                FROM shoppers s WHERE s.id = ?
                """,
                [code.shopper]
            ) { row in (change: CartChange(itemCount: try row.int(2), version: try row.int64(0)), liveKey: try row.string(1)) }
            guard let state else { return .refused }
            return .joined(
                mergedItems: merged, change: state.change, shopperID: code.shopper, shopperLiveKey: state.liveKey, showingClientID: code.client
            )
        }
    }

    /// Adds the lines of `old`'s cart to `shopper`'s (after the shopper's own, in their own
    /// order; a product in both gets the two quantities added, clamped), and its recent searches;
    /// gives `shopper` its orders, and its saved delivery details unless `shopper` has its own.
    /// Without `lines`, the cart's lines stay behind.
    /// - Returns: How many items the merge really added.
    private static func merge(_ old: String, into shopper: String, in db: Database, at now: Int64, lines: Bool) throws -> Int {
        let merged = lines ? try mergeLines(of: old, into: shopper, in: db, at: now) : 0
        try db.execute(
            "INSERT OR IGNORE INTO recent_searches (shopper_id, query, searched_at) SELECT ?, query, searched_at FROM recent_searches WHERE shopper_id = ?",
            [shopper, old]
        )
        try db.execute(
            """
            INSERT OR IGNORE INTO delivery_details (shopper_id, version, saved_at, \(DeliveryDetailsColumns.list))
            SELECT ?, version, saved_at, \(DeliveryDetailsColumns.list) FROM delivery_details WHERE shopper_id = ?
            """,
            [shopper, old]
        )
        // Each order stays the record it is, now listed with the shopper's; an intent the
        // shopper's orders hold too is dropped from the browser's (one order per intent and
        // shopper). Review intents all go at the join's end; what this keeps apart is app keys.
        try db.execute(
            "UPDATE orders SET intent = NULL WHERE shopper_id = ?1 AND intent IN (SELECT intent FROM orders WHERE shopper_id = ?2)",
            [old, shopper]
        )
        try db.execute("UPDATE orders SET shopper_id = ? WHERE shopper_id = ?", [shopper, old])
        return merged
    }

    /// Adds `old`'s cart lines to `shopper`'s; returns how many items that really added.
    private static func mergeLines(of old: String, into shopper: String, in db: Database, at now: Int64) throws -> Int {
        // What the merge will really add: a line meets the shopper's at most at the cap.
        let merged = try db.fetchValue(
            """
            SELECT coalesce(sum(min(c.quantity, ?3 - coalesce(t.quantity, 0))), 0)
            FROM cart_items c JOIN products p ON p.id = c.product_id
            LEFT JOIN cart_items t ON t.shopper_id = ?2 AND t.product_id = c.product_id
            WHERE c.shopper_id = ?1 AND p.active
            """,
            [old, shopper, Cart.quantityRange.upperBound], as: Int.self
        ) ?? 0
        // The browser's lines go after the shopper's, in their own order; a product in
        // both gets the two quantities added, clamped.
        try db.execute(
            """
            INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
            SELECT ?1, product_id, quantity,
                   max(?2, coalesce((SELECT max(added_at) + 1 FROM cart_items WHERE shopper_id = ?1), 0))
                   + row_number() OVER (ORDER BY added_at, product_id)
            FROM cart_items WHERE shopper_id = ?3 AND true
            ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity = min(quantity + excluded.quantity, ?4)
            """,
            [shopper, now * 1000, old, Cart.quantityRange.upperBound]
        )
        return merged
    }
}
