import SQLite

/// Shoppers and their clients, in SQLite.
struct SQLiteSessionStore: SessionStore {
    let pool: SQLiteStoragePool

    func session(clientID: String) throws -> StoredClient? {
        // One statement is its own snapshot: the client, its shopper and the cart lines are read
        // at one moment, with no transaction around them. A shopper without lines gives one row
        // of NULLs for them, a spent client one row with its mark; the cart_items_in_order index
        // gives the lines in order, unsorted. The newest search (of at most five), for the
        // Search tab's link, is the shopper's own column (see migration v17). Each line brings
        // its version: the cart's is the greatest of the shopper's and its lines' (see
        // ``SQLiteCartStore``). Rows are read in place (``StoredClientRows`` names the columns).
        var rows = StoredClientRows(catalog: pool.liveCatalog.current.catalog)
        try pool.withConnection { db in
            try db.forEachRow(
                """
                SELECT cl.spent_at IS NOT NULL OR s.id IS NULL, cl.last_seen, s.id, s.live_key, s.created_at, s.display_name,
                       s.theme, s.tab_order, s.sidebar, s.notifications, max(s.cart_version, coalesce(c.version, 0)),
                       c.product_id, c.quantity, s.newest_search
                FROM clients cl LEFT JOIN shoppers s ON s.id = cl.shopper_id LEFT JOIN cart_items c ON c.shopper_id = s.id
                WHERE cl.id = ?1 ORDER BY c.added_at, c.product_id
                """,
                // Converted already: a literal would build an array of existentials first.
                StatementArguments([.text(clientID)])
            ) { row in
                try rows.read(row)
            }
        }
        return rows.client
    }

    func touch(clientID: String, at now: Int64) throws {
        try pool.write { db in
            try db.execute("UPDATE clients SET last_seen = ? WHERE id = ? AND spent_at IS NULL", [now, clientID])
        }
    }

    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws {
        try pool.write(asClientOf: session, storingAt: now) { db, shopperID in
            try db.execute("UPDATE shoppers SET display_name = ?, last_seen = ? WHERE id = ?", [name, now, shopperID])
        }
    }

    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws {
        try pool.write(asClientOf: session, storingAt: now) { db, shopperID in
            try db.execute(
                "UPDATE shoppers SET theme = ?, tab_order = ?, sidebar = ?, notifications = ?, last_seen = ? WHERE id = ?",
                [preferences.theme.rawValue, preferences.storedTabOrder, preferences.usesSidebar, preferences.notifications, now, shopperID]
            )
        }
    }

    func devices(ofShopper shopperID: String) throws -> [StoredDevice] {
        try pool.withConnection { db in
            try db.fetchAll(
                "SELECT id, device, created_at, last_seen FROM clients WHERE shopper_id = ? ORDER BY created_at, id", [shopperID]
            ) { row in try StoredClientRows.device(from: row) }
        }
    }

    /// Marks the id `clientID` spent, stored or not: its row stays as the mark, naming no
    /// shopper, so no cookie of it leads anywhere again.
    static func spend(_ clientID: String, at now: Int64, in db: Database) throws {
        try db.execute(
            """
            INSERT INTO clients (id, shopper_id, created_at, last_seen, spent_at) VALUES (?1, NULL, ?2, ?2, ?2)
            ON CONFLICT (id) DO UPDATE SET shopper_id = NULL, spent_at = excluded.spent_at
            """,
            [clientID, now]
        )
    }

    @discardableResult
    func endClients(_ clientIDs: [String], ofShopper shopperID: String, spendingUnstored: String?, at now: Int64) throws -> [String] {
        try pool.write { db in
            // The caller's own client as stored now: spent meanwhile, by another sign-out or by a
            // join that moved this browser to a new id (whose cookie it holds now), it has nothing
            // left to sign out; else it is signed out of whichever cart a join moved it to.
            let own = try spendingUnstored.flatMap { own in
                try db.withFirstRow("SELECT shopper_id, spent_at IS NOT NULL FROM clients WHERE id = ?", [own]) { row in
                    (shopper: try row.get(0, as: String?.self), isSpent: try row.bool(1))
                }
            }
            if own?.isSpent == true { throw StorageError.signedOut }
            let ownShopper = own?.shopper ?? nil
            var ended: [String] = []
            for clientID in clientIDs {
                // The row stays as the mark that the id is spent; it no longer names a shopper.
                try db.execute(
                    "UPDATE clients SET shopper_id = NULL, spent_at = ? WHERE id = ? AND shopper_id = ?",
                    [now, clientID, clientID == spendingUnstored ? ownShopper ?? shopperID : shopperID]
                )
                if db.changes == 1 { ended.append(clientID) }
            }
            if let unstored = spendingUnstored, !ended.contains(unstored) {
                try Self.spend(unstored, at: now, in: db)
            }
            // Its cart lines and searches go with it (ON DELETE CASCADE); its orders stay.
            for shopper in Set([shopperID] + (ownShopper.map { [$0] } ?? [])) {
                try db.execute(
                    "DELETE FROM shoppers WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = ?1)", [shopper]
                )
            }
            return ended
        }
    }

    @discardableResult
    func endClients(ofShopper shopperID: String, except clientID: String, at now: Int64) throws -> [String] {
        try pool.write { db in
            try db.fetchAll(
                "UPDATE clients SET shopper_id = NULL, spent_at = ? WHERE shopper_id = ? AND id <> ? RETURNING id", [now, shopperID, clientID]
            ) { row in try row.string(0) }
        }
    }

    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int {
        try pool.write { db in
            try db.execute("DELETE FROM clients WHERE spent_at IS NULL AND last_seen < ?", [cutoff])
            let deleted = db.changes
            // A mark older than the idle lifetime guards nothing: every cookie of that client
            // was issued before it, so it has expired by itself.
            try db.execute("DELETE FROM clients WHERE spent_at < ?", [cutoff])
            try db.execute("DELETE FROM join_codes WHERE expires_at < ?", [cutoff])
            try db.execute("DELETE FROM shoppers WHERE NOT EXISTS (SELECT 1 FROM clients WHERE clients.shopper_id = shoppers.id)")
            return deleted
        }
    }
}
