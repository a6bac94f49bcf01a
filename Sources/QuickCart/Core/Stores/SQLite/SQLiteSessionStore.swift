import SQLite

/// Sessions, their display names and preferences, in SQLite.
struct SQLiteSessionStore: SessionStore {
    let database: SQLiteDatabase

    func session(storageID: String) throws -> StoredSession? {
        // One statement is its own snapshot: the session and its cart lines are read at one
        // moment, with no transaction around them. A session without lines gives one row of
        // NULLs for them; the cart_items_in_order index gives the lines in order, unsorted.
        // The newest search (of at most five) comes along, for the Search tab's link: bound to
        // the id rather than correlated with `s`, it runs once per read, not once per line.
        // Rows are read in place: the session's columns once, from the first row, and only
        // the two line columns from each row.
        var stored: StoredSession?
        let catalog = database.catalog.current.catalog
        var items: [Cart.Item] = []
        try database.withConnection { db in
            try db.forEachRow(
                """
                SELECT s.created_at, s.last_seen, s.display_name, s.theme, s.tab_order, s.sidebar, s.notifications,
                       s.cart_version, c.product_id, c.quantity,
                       (SELECT query FROM recent_searches r WHERE r.session_id = ?1 ORDER BY r.searched_at DESC, r.query LIMIT 1)
                FROM sessions s LEFT JOIN cart_items c ON c.session_id = s.id
                WHERE s.id = ?1 ORDER BY c.added_at, c.product_id
                """,
                // Converted already: a literal would build an array of existentials first.
                StatementArguments([.text(storageID)])
            ) { row in
                if stored == nil {
                    stored = StoredSession(
                        createdAt: try row.int64(0), lastSeen: try row.int64(1), displayName: try row.string(2),
                        preferences: Preferences(
                            storedTheme: try row.string(3), storedTabOrder: try row.string(4),
                            usesSidebar: try row.bool(5), notifications: try row.bool(6)
                        ),
                        cart: Cart(), cartVersion: try row.int64(7),
                        newestSearch: try row.isNull(10) ? nil : try row.string(10)
                    )
                }
                guard !(try row.isNull(8)), let product = catalog.product(id: try row.int64(8)) else { return }
                items.append(Cart.Item(product: product, quantity: try row.int(9)))
            }
        }
        stored?.cart.items = items
        return stored
    }

    func touch(storageID: String, at now: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE sessions SET last_seen = ? WHERE id = ?", [now, storageID])
        }
    }

    func deleteSession(storageID: String) throws {
        try database.write { db in
            // Its cart lines and searches go with it (ON DELETE CASCADE).
            try db.execute("DELETE FROM sessions WHERE id = ?", [storageID])
        }
    }

    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws {
        try database.write(storing: session, at: now) { db in
            try db.execute("UPDATE sessions SET display_name = ?, last_seen = ? WHERE id = ?", [name, now, session.storageID])
        }
    }

    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws {
        try database.write(storing: session, at: now) { db in
            try db.execute(
                "UPDATE sessions SET theme = ?, tab_order = ?, sidebar = ?, notifications = ?, last_seen = ? WHERE id = ?",
                [preferences.theme.rawValue, preferences.storedTabOrder, preferences.usesSidebar, preferences.notifications, now, session.storageID]
            )
        }
    }

    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM sessions WHERE last_seen < ?", [cutoff])
            return db.changes
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
                "SELECT query FROM recent_searches WHERE session_id = ? ORDER BY searched_at DESC, query LIMIT ?",
                [session.storageID, SearchHistory.limit]
            ) { try $0.string(0) }
        }
    }

    func clearSearches(for session: Session) throws {
        guard session.isStored else { return }
        try database.write { db in
            try db.execute("DELETE FROM recent_searches WHERE session_id = ?", [session.storageID])
        }
    }

    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64) throws {
        guard session.isStored else { return }
        try database.write { db in
            // "Tent" after "tent" is the same search again: keep only the newest spelling.
            try db.execute(
                "DELETE FROM recent_searches WHERE session_id = ? AND lower(query) = lower(?) AND query != ?",
                [session.storageID, query, query]
            )
            // Later than every search already there, even one in the same millisecond, so
            // "newest first" never falls back to the order of the words.
            try db.execute(
                """
                INSERT INTO recent_searches (session_id, query, searched_at)
                VALUES (?, ?, max(?, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE session_id = ?), 0)))
                ON CONFLICT (session_id, query) DO UPDATE SET searched_at = excluded.searched_at
                """,
                [session.storageID, query, nowMilliseconds, session.storageID]
            )
            try db.execute(
                """
                DELETE FROM recent_searches WHERE session_id = ? AND query NOT IN (
                    SELECT query FROM recent_searches WHERE session_id = ? ORDER BY searched_at DESC LIMIT ?)
                """,
                [session.storageID, session.storageID, SearchHistory.limit]
            )
        }
    }
}
