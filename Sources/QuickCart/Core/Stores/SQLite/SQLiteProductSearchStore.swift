/// Product search in SQLite: the FTS5 table `product_search` (porter stemming over unicode61
/// words), which triggers keep in step with `products`, ranked by `bm25()` with the name
/// weighing most. Inactive products are never found.
struct SQLiteProductSearchStore: ProductSearchStore {
    let database: SQLiteDatabase

    func searchProducts(matching query: String, limit: Int) throws -> [Int64] {
        guard let expression = Self.matchExpression(for: query) else { return [] }
        return try database.read { db in
            try db.fetchAll(
                """
                SELECT products.id FROM product_search JOIN products ON products.id = product_search.rowid
                WHERE product_search MATCH ? AND products.active = 1
                ORDER BY bm25(product_search, 10.0, 1.0, 4.0), products.id LIMIT ?
                """,
                [expression, limit]
            ) { try $0.int64(0) }
        }
    }

    /// An FTS5 expression requiring every word, each a quoted string (so none is read as an
    /// operator); the last matches as a whole word or as the start of one.
    static func matchExpression(for query: String) -> String? {
        let terms = ProductSearch.terms(in: query)
        guard let last = terms.last else { return nil }
        let quoted = "\"\(last)\""
        let lastMatch = terms.lastIsCommon ? "\(quoted)*" : "(\(quoted) OR \(quoted)*)"
        return (terms.required.map { "\"\($0)\"" } + [lastMatch]).joined(separator: " AND ")
    }
}
