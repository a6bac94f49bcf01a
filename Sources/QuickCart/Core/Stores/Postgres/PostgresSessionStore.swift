import Postgres

/// Sessions, their display names and preferences, in PostgreSQL.
struct PostgresSessionStore: SessionStore {
    /// The advisory lock held while purging, so one instance of the cluster purges at a time
    /// and the others skip their turn: "QCPURGE" in ASCII.
    static let purgeLockKey: Int64 = 0x51_4350_5552_4745

    let database: PostgresDatabase

    func session(storageID: String) throws -> StoredSession? {
        // One statement is its own snapshot: the session and its cart lines are read at one
        // moment. A session without lines gives one row of NULLs for them. The newest search
        // (of at most five) comes along, for the Search tab's link.
        var stored: StoredSession?
        let catalog = database.catalog.current.catalog
        let items = try database.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT s.created_at, s.last_seen, s.display_name, s.theme, s.tab_order, s.sidebar, s.notifications,
                       s.cart_version, c.product_id, c.quantity,
                       (SELECT query FROM recent_searches r WHERE r.session_id = $1 ORDER BY r.searched_at DESC, r.query LIMIT 1)
                FROM sessions s LEFT JOIN cart_items c ON c.session_id = s.id
                WHERE s.id = $1 ORDER BY c.added_at, c.product_id
                """,
                storageID
            ) { row -> Cart.Item? in
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
                guard !(try row.isNull(8)), let product = catalog.product(id: try row.int64(8)) else { return nil }
                return Cart.Item(product: product, quantity: try row.int(9))
            }
        }
        stored?.cart.items = items.compactMap { $0 }
        return stored
    }

    func touch(storageID: String, at now: Int64) throws {
        try database.withConnection { connection in
            try connection.execute("UPDATE sessions SET last_seen = $1 WHERE id = $2", now, storageID)
        }
    }

    func deleteSession(storageID: String) throws {
        try database.withConnection { connection in
            // Its cart lines and searches go with it (ON DELETE CASCADE).
            try connection.execute("DELETE FROM sessions WHERE id = $1", storageID)
        }
    }

    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws {
        try database.write(storing: session, at: now) { connection in
            try connection.execute("UPDATE sessions SET display_name = $1, last_seen = $2 WHERE id = $3", name, now, session.storageID)
        }
    }

    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws {
        try database.write(storing: session, at: now) { connection in
            try connection.execute(
                "UPDATE sessions SET theme = $1, tab_order = $2, sidebar = $3, notifications = $4, last_seen = $5 WHERE id = $6",
                preferences.theme.rawValue, preferences.storedTabOrder, preferences.usesSidebar,
                preferences.notifications, now, session.storageID
            )
        }
    }

    /// Purges once across the cluster: an instance that finds another purging deletes
    /// nothing and returns 0 (the other one's purge covers the same sessions).
    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int {
        try database.write { connection in
            // Released with the transaction, so a crashed purger leaves no lock behind.
            let locked: Bool = try connection.fetchValue("SELECT pg_try_advisory_xact_lock($1)", Self.purgeLockKey) ?? false
            guard locked else { return 0 }
            return try connection.execute("DELETE FROM sessions WHERE last_seen < $1", cutoff)
        }
    }
}

/// Recent searches, in PostgreSQL.
struct PostgresSearchHistoryStore: SearchHistoryStore {
    let database: PostgresDatabase

    func recentSearches(for session: Session) throws -> [String] {
        guard session.isStored else { return [] }
        return try database.withConnection { connection in
            try connection.fetchAll(
                "SELECT query FROM recent_searches WHERE session_id = $1 ORDER BY searched_at DESC, query LIMIT $2",
                session.storageID, SearchHistory.limit
            ) { try $0.string(0) }
        }
    }

    func clearSearches(for session: Session) throws {
        guard session.isStored else { return }
        try database.write { connection in
            _ = try connection.execute("DELETE FROM recent_searches WHERE session_id = $1", session.storageID)
        }
    }

    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64) throws {
        guard session.isStored else { return }
        try database.write { connection in
            // "Tent" after "tent" is the same search again: keep only the newest spelling.
            try connection.execute(
                "DELETE FROM recent_searches WHERE session_id = $1 AND lower(query) = lower($2) AND query <> $2",
                session.storageID, query
            )
            // Later than every search already there, even one in the same millisecond, so
            // "newest first" never falls back to the order of the words.
            try connection.execute(
                """
                INSERT INTO recent_searches (session_id, query, searched_at)
                VALUES ($1, $2, greatest($3::bigint, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE session_id = $1), 0)))
                ON CONFLICT (session_id, query) DO UPDATE SET searched_at = excluded.searched_at
                """,
                session.storageID, query, nowMilliseconds
            )
            try connection.execute(
                """
                DELETE FROM recent_searches WHERE session_id = $1 AND query NOT IN (
                    SELECT query FROM recent_searches WHERE session_id = $1 ORDER BY searched_at DESC LIMIT $2)
                """,
                session.storageID, SearchHistory.limit
            )
        }
    }
}
