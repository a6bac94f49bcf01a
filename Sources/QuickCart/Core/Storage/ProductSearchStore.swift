/// Full-text search over the products, by the backend's own engine: words are stemmed
/// ("tents" finds the tent), every word must match, and results come best first.
public protocol ProductSearchStore: Sendable {
    /// The ids of the products for sale (active) whose name, description or category match every word of
    /// `query` (the last one also as the start of a word, as it is being typed), best match
    /// first, at most `limit`. A query without words matches nothing. Quotes, operators and
    /// other punctuation in `query` are never read as search syntax: they separate words.
    func searchProducts(matching query: String, limit: Int) throws -> [Int64]
}

/// How every ``ProductSearchStore`` reads a shopper's query.
public enum ProductSearch {
    /// The most words of a query that are searched; the rest are ignored.
    public static let maximumWords = 16

    /// The words of `query`, lowercased: runs of letters and digits. Everything else (quotes,
    /// `*`, `-`, `:`, parentheses) only separates them, so no engine ever sees its own syntax.
    public static func words(in query: String) -> [String] {
        query.lowercased()
            .split { !($0.isLetter || $0.isNumber) }
            .prefix(maximumWords)
            .map(String.init)
    }
}
