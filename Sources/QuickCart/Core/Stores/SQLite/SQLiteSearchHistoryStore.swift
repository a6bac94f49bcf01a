import SQLite

/// Recent searches, in SQLite.
struct SQLiteSearchHistoryStore: SearchHistoryStore {
    let pool: SQLiteStoragePool

    func recentSearches(for session: Session) throws -> [String] {
        guard session.isStored else { return [] }
        return try pool.withConnection { db in
            try db.fetchAll(
                "SELECT query FROM recent_searches WHERE shopper_id = ? ORDER BY searched_at DESC, query LIMIT ?",
                [session.shopperID, SearchHistory.limit]
            ) { try $0.string(0) }
        }
    }

    func clearSearches(for session: Session, at now: Int64) throws {
        try pool.write(asClientOf: session, storingAt: now) { db, shopperID in
            try db.execute("DELETE FROM recent_searches WHERE shopper_id = ?", [shopperID])
        }
    }

    /// Adds the searches of a client not stored yet (``Session/waitingSearches``, newest first)
    /// to `shopperID`'s, as searched `now` (seconds): by the change that stores the client, or
    /// the join that takes it into another shopper's cart. Words the shopper searched already,
    /// in any case, keep their place.
    static func addWaiting(_ searches: [String], to shopperID: String, at now: Int64, in db: Database) throws {
        for (offset, query) in searches.prefix(SearchHistory.limit).enumerated() {
            try db.execute(
                """
                INSERT OR IGNORE INTO recent_searches (shopper_id, query, searched_at)
                SELECT ?1, ?2, ?3 WHERE NOT EXISTS (SELECT 1 FROM recent_searches WHERE shopper_id = ?1 AND lower(query) = lower(?2))
                """,
                [shopperID, query, now * 1000 - Int64(offset)]
            )
        }
    }

    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64) throws {
        guard session.isStored else { return }
        try pool.write(asClientOf: session) { db, shopperID in
            // "Tent" after "tent" is the same search again: keep only the newest spelling.
            try db.execute(
                "DELETE FROM recent_searches WHERE shopper_id = ? AND lower(query) = lower(?) AND query != ?",
                [shopperID, query, query]
            )
            // Later than every search already there, even one in the same millisecond, so
            // "newest first" never falls back to the order of the words.
            try db.execute(
                """
                INSERT INTO recent_searches (shopper_id, query, searched_at)
                VALUES (?, ?, max(?, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE shopper_id = ?), 0)))
                ON CONFLICT (shopper_id, query) DO UPDATE SET searched_at = excluded.searched_at
                """,
                [shopperID, query, nowMilliseconds, shopperID]
            )
            try db.execute(
                """
                DELETE FROM recent_searches WHERE shopper_id = ? AND query NOT IN (
                    SELECT query FROM recent_searches WHERE shopper_id = ? ORDER BY searched_at DESC LIMIT ?)
                """,
                [shopperID, shopperID, SearchHistory.limit]
            )
        }
    }
}
