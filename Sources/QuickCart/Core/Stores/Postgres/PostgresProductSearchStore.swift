/// Product search in PostgreSQL: the generated `search_document` column (English stemming,
/// the name weighing most), indexed with GIN, ranked by `ts_rank`. Inactive products are
/// never found.
struct PostgresProductSearchStore: ProductSearchStore {
    let database: PostgresDatabase

    func searchProducts(matching query: String, limit: Int) throws -> [Int64] {
        let terms = ProductSearch.terms(in: query)
        guard let last = terms.last else { return [] }
        // Whole words through the English configuration (stemmed); a common word being typed
        // only as the start of others, through `simple` (no stop words, no stemming).
        var words = terms.required.joined(separator: " & ")
        var start = ""
        if terms.lastIsCommon {
            start = "\(last):*"
        } else {
            words += (words.isEmpty ? "" : " & ") + "(\(last) | \(last):*)"
        }
        return try database.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT id FROM products, (SELECT to_tsquery('english', $1) && to_tsquery('simple', $2) AS query) AS search
                WHERE search_document @@ query AND active
                ORDER BY ts_rank(search_document, query) DESC, id LIMIT $3
                """,
                words, start, Int64(limit)
            ) { try $0.int64(0) }
        }
    }
}
