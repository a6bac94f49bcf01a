import SQLite

/// Shoppers and their clients, in SQLite.
struct SQLiteSessionStore: SessionStore {
    let database: SQLiteDatabase

    func session(clientID: String) throws -> StoredClient? {
        // One statement is its own snapshot: the client, its shopper and the cart lines are read
        // at one moment, with no transaction around them. A shopper without lines gives one row
        // of NULLs for them; the cart_items_in_order index gives the lines in order, unsorted.
        // A spent client gives one row with its mark and NULLs for the rest. The newest search
        // (of at most five) comes along, for the Search tab's link: bound to the client's id
        // rather than correlated with `s`, it runs once per read, not once per line. Rows are
        // read in place: the shopper's columns once, from the first row, and only the two line
        // columns from each row.
        var stored: StoredClient?
        let catalog = database.catalog.current.catalog
        var items: [Cart.Item] = []
        try database.withConnection { db in
            try db.forEachRow(
                """
                SELECT cl.spent_at IS NOT NULL OR s.id IS NULL, cl.last_seen, s.id, s.live_key, s.created_at, s.display_name,
                       s.theme, s.tab_order, s.sidebar, s.notifications, s.cart_version, c.product_id, c.quantity,
                       (SELECT query FROM recent_searches r WHERE r.shopper_id = (SELECT shopper_id FROM clients WHERE id = ?1)
                        ORDER BY r.searched_at DESC, r.query LIMIT 1)
                FROM clients cl LEFT JOIN shoppers s ON s.id = cl.shopper_id LEFT JOIN cart_items c ON c.shopper_id = s.id
                WHERE cl.id = ?1 ORDER BY c.added_at, c.product_id
                """,
                // Converted already: a literal would build an array of existentials first.
                StatementArguments([.text(clientID)])
            ) { row in
                if stored == nil {
                    if try row.bool(0) {
                        stored = .spent
                        return
                    }
                    stored = .active(StoredSession(
                        shopperID: try row.string(2), shopperLiveKey: try row.string(3), createdAt: try row.int64(4),
                        lastSeen: try row.int64(1), displayName: try row.string(5),
                        preferences: Preferences(
                            storedTheme: try row.string(6), storedTabOrder: try row.string(7),
                            usesSidebar: try row.bool(8), notifications: try row.bool(9)
                        ),
                        cart: Cart(), cartVersion: try row.int64(10),
                        newestSearch: try row.isNull(13) ? nil : try row.string(13)
                    ))
                }
                guard !(try row.isNull(11)), let product = catalog.product(id: try row.int64(11)) else { return }
                items.append(Cart.Item(product: product, quantity: try row.int(12)))
            }
        }
        guard case .active(var session) = stored else { return stored }
        session.cart.items = items
        return .active(session)
    }

    func touch(clientID: String, at now: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE clients SET last_seen = ? WHERE id = ? AND spent_at IS NULL", [now, clientID])
        }
    }

    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws {
        try database.write(storing: session, at: now) { db in
            try db.execute("UPDATE shoppers SET display_name = ?, last_seen = ? WHERE id = ?", [name, now, session.shopperID])
        }
    }

    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws {
        try database.write(storing: session, at: now) { db in
            try db.execute(
                "UPDATE shoppers SET theme = ?, tab_order = ?, sidebar = ?, notifications = ?, last_seen = ? WHERE id = ?",
                [preferences.theme.rawValue, preferences.storedTabOrder, preferences.usesSidebar, preferences.notifications, now, session.shopperID]
            )
        }
    }

    func devices(ofShopper shopperID: String) throws -> [StoredDevice] {
        try database.withConnection { db in
            try db.fetchAll(
                "SELECT id, device, created_at, last_seen FROM clients WHERE shopper_id = ? ORDER BY created_at, id", [shopperID]
            ) { row in
                StoredDevice(clientID: try row.string(0), device: try row.string(1), createdAt: try row.int64(2), lastSeen: try row.int64(3))
            }
        }
    }

    @discardableResult
    func endClients(_ clientIDs: [String], ofShopper shopperID: String, spendingUnstored: String?, at now: Int64) throws -> [String] {
        try database.write { db in
            var ended: [String] = []
            for clientID in clientIDs {
                // The row stays as the mark that the id is spent; it no longer names a shopper.
                try db.execute(
                    "UPDATE clients SET shopper_id = NULL, spent_at = ? WHERE id = ? AND shopper_id = ?", [now, clientID, shopperID]
                )
                if db.changes == 1 { ended.append(clientID) }
            }
            if let unstored = spendingUnstored, !ended.contains(unstored) {
                try db.execute(
                    "INSERT OR IGNORE INTO clients (id, shopper_id, created_at, last_seen, spent_at) VALUES (?, NULL, ?, ?, ?)",
                    [unstored, now, now, now]
                )
            }
            // Its cart lines and searches go with it (ON DELETE CASCADE); its orders stay.
            try db.execute(
                "DELETE FROM shoppers WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = ?1)", [shopperID]
            )
            return ended
        }
    }

    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int {
        try database.write { db in
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

/// Recent searches, in SQLite.
struct SQLiteSearchHistoryStore: SearchHistoryStore {
    let database: SQLiteDatabase

    func recentSearches(for session: Session) throws -> [String] {
        guard session.isStored else { return [] }
        return try database.withConnection { db in
            try db.fetchAll(
                "SELECT query FROM recent_searches WHERE shopper_id = ? ORDER BY searched_at DESC, query LIMIT ?",
                [session.shopperID, SearchHistory.limit]
            ) { try $0.string(0) }
        }
    }

    func clearSearches(for session: Session) throws {
        guard session.isStored else { return }
        try database.write { db in
            try db.execute("DELETE FROM recent_searches WHERE shopper_id = ?", [session.shopperID])
        }
    }

    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64) throws {
        guard session.isStored else { return }
        try database.write { db in
            // "Tent" after "tent" is the same search again: keep only the newest spelling.
            try db.execute(
                "DELETE FROM recent_searches WHERE shopper_id = ? AND lower(query) = lower(?) AND query != ?",
                [session.shopperID, query, query]
            )
            // Later than every search already there, even one in the same millisecond, so
            // "newest first" never falls back to the order of the words.
            try db.execute(
                """
                INSERT INTO recent_searches (shopper_id, query, searched_at)
                VALUES (?, ?, max(?, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE shopper_id = ?), 0)))
                ON CONFLICT (shopper_id, query) DO UPDATE SET searched_at = excluded.searched_at
                """,
                [session.shopperID, query, nowMilliseconds, session.shopperID]
            )
            try db.execute(
                """
                DELETE FROM recent_searches WHERE shopper_id = ? AND query NOT IN (
                    SELECT query FROM recent_searches WHERE shopper_id = ? ORDER BY searched_at DESC LIMIT ?)
                """,
                [session.shopperID, session.shopperID, SearchHistory.limit]
            )
        }
    }
}
