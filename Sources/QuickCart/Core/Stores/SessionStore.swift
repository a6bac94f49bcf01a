import SQLite

/// Sessions, their display names and recent searches, in SQLite.
public final class SessionStore: Sendable {
    /// A stored session's row.
    struct Record {
        let createdAt: Int64
        let lastSeen: Int64
        let displayName: String
        let preferences: Preferences
    }

    private let pool: DatabasePool
    /// The cart a new session starts with.
    private let starterCart: Cart

    init(pool: DatabasePool, starterCart: Cart) {
        self.pool = pool
        self.starterCart = starterCart
    }

    /// The secret that signs session cookies, made by a migration on first start.
    func secret() throws -> [UInt8] {
        let hex = try pool.read { db in
            try db.fetchValue("SELECT value FROM settings WHERE key = 'session-secret'", as: String.self)
        }
        guard let hex, let secret = Hex.decode(hex), secret.count >= 32 else {
            throw StoreError.missingSecret
        }
        return secret
    }

    func record(id: String) throws -> Record? {
        // One statement is its own snapshot: no transaction needed around it.
        try pool.withConnection { db in
            try db.fetchOne(
                "SELECT created_at, last_seen, display_name, theme, tab_order, sidebar, notifications FROM sessions WHERE id = ?",
                id
            ) { row in
                Record(
                    createdAt: try row.int64(0), lastSeen: try row.int64(1), displayName: try row.string(2),
                    preferences: Preferences(
                        theme: Preferences.Theme(rawValue: try row.string(3)) ?? .system,
                        tabOrder: try row.string(4).split(separator: ",").map(String.init),
                        usesSidebar: try row.bool(5),
                        notifications: try row.bool(6)
                    )
                )
            }
        }
    }

    /// Records that the session was used at `now`.
    func touch(id: String, at now: Int64) throws {
        try pool.write { db in
            try db.execute("UPDATE sessions SET last_seen = ? WHERE id = ?", now, id)
        }
    }

    /// Stores `session` if it is not stored yet, with the starter cart. Call inside the write
    /// transaction of the session's first change, so the two land together or not at all.
    func store(_ session: Session, in db: Database, at now: Int64) throws {
        // A session read from the database moments ago is there: no insert to attempt.
        guard !session.isStored else { return }
        try db.execute(
            "INSERT OR IGNORE INTO sessions (id, created_at, last_seen, display_name) VALUES (?, ?, ?, ?)",
            session.id, session.createdAt, now, session.displayName
        )
        guard db.changes == 1 else { return }
        for (offset, item) in starterCart.items.enumerated() {
            try db.execute(
                "INSERT INTO cart_items (session_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)",
                session.id, item.product.id, item.quantity, now * 1000 + Int64(offset)
            )
        }
    }

    /// Changes the name shown on Profile.
    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws {
        try pool.write { db in
            try store(session, in: db, at: now)
            try db.execute("UPDATE sessions SET display_name = ?, last_seen = ? WHERE id = ?", name, now, session.id)
        }
    }

    /// Stores the session's preferences.
    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws {
        try pool.write { db in
            try store(session, in: db, at: now)
            try db.execute(
                "UPDATE sessions SET theme = ?, tab_order = ?, sidebar = ?, notifications = ?, last_seen = ? WHERE id = ?",
                preferences.theme.rawValue, preferences.tabOrder.joined(separator: ","), preferences.usesSidebar,
                preferences.notifications, now, session.id
            )
        }
    }

    // MARK: - Recent searches

    /// The session's last `limit` distinct searches, newest first.
    func recentSearches(for session: Session, limit: Int = 5) throws -> [String] {
        guard session.isStored else { return [] }
        return try pool.read { db in
            try db.fetchAll(
                "SELECT query FROM recent_searches WHERE session_id = ? ORDER BY searched_at DESC, query LIMIT ?",
                session.id, limit
            ) { try $0.string(0) }
        }
    }

    /// Remembers a search, keeping only the newest `keep` per session.
    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64, keep: Int = 5) throws {
        try pool.write { db in
            try store(session, in: db, at: nowMilliseconds / 1000)
            // "Tent" after "tent" is the same search again: keep only the newest spelling.
            try db.execute(
                "DELETE FROM recent_searches WHERE session_id = ? AND lower(query) = lower(?) AND query != ?",
                session.id, query, query
            )
            // Later than every search already there, even one in the same millisecond, so
            // "newest first" never falls back to the order of the words.
            try db.execute(
                """
                INSERT INTO recent_searches (session_id, query, searched_at)
                VALUES (?, ?, max(?, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE session_id = ?), 0)))
                ON CONFLICT (session_id, query) DO UPDATE SET searched_at = excluded.searched_at
                """,
                session.id, query, nowMilliseconds, session.id
            )
            try db.execute(
                """
                DELETE FROM recent_searches WHERE session_id = ? AND query NOT IN (
                    SELECT query FROM recent_searches WHERE session_id = ? ORDER BY searched_at DESC LIMIT ?)
                """,
                session.id, session.id, keep
            )
        }
    }

    // MARK: - Expiry

    /// Deletes sessions last seen before `cutoff`, with their carts and searches (orders stay).
    /// - Returns: How many sessions were deleted.
    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int {
        try pool.write { db in
            try db.execute("DELETE FROM sessions WHERE last_seen < ?", cutoff)
            return db.changes
        }
    }
}

/// Failures of the stores that are not SQLite's own.
enum StoreError: Error, CustomStringConvertible {
    case missingSecret

    var description: String {
        switch self {
        case .missingSecret: "the session secret is missing from the settings table"
        }
    }
}
