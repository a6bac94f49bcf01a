/// Product search in PostgreSQL: the generated `search_document` column (English stemming,
/// the name weighing most), indexed with GIN, ranked by `ts_rank`. Inactive products are
/// never found.
struct PostgresProductSearchStore: ProductSearchStore {
    let database: PostgresDatabase

    func searchProducts(matching query: String, limit: Int) throws -> [Int64] {
        guard let expression = Self.tsquery(for: query) else { return [] }
        return try database.withConnection { connection in
            try connection.fetchAll(
                """
                SELECT id FROM products, to_tsquery('english', $1) AS query
                WHERE search_document @@ query AND active
                ORDER BY ts_rank(search_document, query) DESC, id LIMIT $2
                """,
                expression, Int64(limit)
            ) { try $0.int64(0) }
        }
    }

    /// A `tsquery` requiring every word; the last matches as a whole word or as the start of
    /// one (`:*`). Words are letters and digits only, so nothing in them is `tsquery` syntax.
    static func tsquery(for query: String) -> String? {
        let words = ProductSearch.words(in: query)
        guard let last = words.last else { return nil }
        return (words.dropLast() + ["(\(last) | \(last):*)"]).joined(separator: " & ")
    }
}
