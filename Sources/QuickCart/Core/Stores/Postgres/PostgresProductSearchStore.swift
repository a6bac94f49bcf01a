/// Product search in PostgreSQL: the generated `search_document` column (English stemming,
/// the name weighing most, and the words as written at the lowest weight), indexed with GIN,
/// ranked by `ts_rank`. Inactive products are never found.
struct PostgresProductSearchStore: ProductSearchStore {
    let pool: PostgresStoragePool

    func searchProducts(matching query: String, limit: Int) throws -> [Int64] {
        let terms = ProductSearch.terms(in: query)
        guard let last = terms.last else { return [] }
        // The words before the last through the English configuration (stemmed, stop words
        // left out); the last one whole or as the start of a stem in English, or as the start
        // of a word as written through `simple` (no stemming, no stop words): English keeps
        // "running" as "run", which "runn" is not the start of, and drops a common word.
        // Terms are letters, digits and marks only, so none is tsquery syntax.
        let required = terms.required.joined(separator: " & ")
        return try pool.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT id FROM products, (
                    SELECT to_tsquery('english', $1) && (to_tsquery('english', $2) || to_tsquery('simple', $3)) AS query
                ) AS search
                WHERE search_document @@ query AND active
                ORDER BY ts_rank(search_document, query) DESC, id LIMIT $4
                """,
                required, "\(last) | \(last):*", "\(last):*", Int64(limit)
            ) { try $0.int64(0) }
        }
    }
}
