import Postgres

/// Recent searches, in PostgreSQL.
struct PostgresSearchHistoryStore: SearchHistoryStore {
    let pool: PostgresStoragePool

    func recentSearches(for session: Session) throws -> [String] {
        guard session.isStored else { return [] }
        return try pool.withConnection { connection in
            try connection.fetchAll(
                "SELECT query FROM recent_searches WHERE shopper_id = $1 ORDER BY searched_at DESC, query LIMIT $2",
                session.shopperID, SearchHistory.limit
            ) { try $0.string(0) }
        }
    }

    func clearSearches(for session: Session) throws {
        guard session.isStored else { return }
        try pool.write(asClientOf: session) { connection, shopperID in
            _ = try connection.execute("DELETE FROM recent_searches WHERE shopper_id = $1", shopperID)
        }
    }

    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64) throws {
        guard session.isStored else { return }
        try pool.write(asClientOf: session) { connection, shopperID in
            // "Tent" after "tent" is the same search again: keep only the newest spelling.
            try connection.execute(
                "DELETE FROM recent_searches WHERE shopper_id = $1 AND lower(query) = lower($2) AND query <> $2",
                shopperID, query
            )
            // Later than every search already there, even one in the same millisecond, so
            // "newest first" never falls back to the order of the words.
            try connection.execute(
                """
                INSERT INTO recent_searches (shopper_id, query, searched_at)
                VALUES ($1, $2, greatest($3::bigint, coalesce((SELECT max(searched_at) + 1 FROM recent_searches WHERE shopper_id = $1), 0)))
                ON CONFLICT (shopper_id, query) DO UPDATE SET searched_at = excluded.searched_at
                """,
                shopperID, query, nowMilliseconds
            )
            try connection.execute(
                """
                DELETE FROM recent_searches WHERE shopper_id = $1 AND query NOT IN (
                    SELECT query FROM recent_searches WHERE shopper_id = $1 ORDER BY searched_at DESC LIMIT $2)
                """,
                shopperID, SearchHistory.limit
            )
        }
    }
}
