import SQLite

/// Product search in SQLite: the FTS5 table `product_search` (porter stemming over unicode61
/// words) for whole words in any of their forms, and `product_words` (the same words as
/// written, unstemmed) for the last word as the start of a word; triggers keep both in step
/// with `products`. Ranked by `bm25()` with the name weighing most. Inactive products are
/// never found.
struct SQLiteProductSearchStore: ProductSearchStore {
    let pool: SQLiteStoragePool

    func searchProducts(matching query: String, limit: Int) throws -> [Int64] {
        let terms = ProductSearch.terms(in: query)
        guard let expression = Self.matchExpression(for: terms), let last = terms.last else { return [] }
        let required = Self.requiredExpression(for: terms)
        // A product is found by the stemmed index (every word, the last whole or as the start
        // of a stem), or by the last word starting one of its words as written while the
        // stemmed index has the others; the better of its two scores ranks it.
        let sql = """
            SELECT products.id FROM (
                SELECT rowid AS id, bm25(product_search, 10.0, 1.0, 4.0) AS score FROM product_search WHERE product_search MATCH ?
                UNION ALL
                SELECT rowid AS id, bm25(product_words, 10.0, 1.0, 4.0) AS score FROM product_words WHERE product_words MATCH ?
                \(required == nil ? "" : "AND rowid IN (SELECT rowid FROM product_search WHERE product_search MATCH ?)")
            ) AS found JOIN products ON products.id = found.id
            WHERE products.active = 1
            GROUP BY products.id ORDER BY min(found.score), products.id LIMIT ?
            """
        var arguments = [expression.databaseValue, (Self.quoted(last) + "*").databaseValue]
        if let required { arguments.append(required.databaseValue) }
        arguments.append(limit.databaseValue)
        return try pool.read { db in
            try db.fetchAll(sql, StatementArguments(arguments)) { try $0.int64(0) }
        }
    }

    /// An FTS5 expression requiring every word, each a quoted string (so none is read as an
    /// operator); the last matches as a whole word or as the start of one.
    private static func matchExpression(for terms: ProductSearch.Terms) -> String? {
        guard let last = terms.last else { return nil }
        let lastMatch = terms.lastIsCommon ? "\(quoted(last))*" : "(\(quoted(last)) OR \(quoted(last))*)"
        return (terms.required.map(quoted) + [lastMatch]).joined(separator: " AND ")
    }

    /// The words before the last, all required, or `nil` when there are none.
    private static func requiredExpression(for terms: ProductSearch.Terms) -> String? {
        terms.required.isEmpty ? nil : terms.required.map(quoted).joined(separator: " AND ")
    }

    /// A term as an FTS5 string. Terms are letters, digits and marks only, so no quote is ever
    /// inside one; quoting still keeps `AND`, `OR`, `NOT` and `NEAR` plain words.
    private static func quoted(_ term: String) -> String {
        "\"" + term + "\""
    }
}
