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

    func clearSearches(for session: Session) throws {
        guard session.isStored else { return }
        try pool.write(asClientOf: session) { db, shopperID in
            try db.execute("DELETE FROM recent_searches WHERE shopper_id = ?", [shopperID])
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
