import Mustache

/// Search (`search.mustache`): the field, recent searches, and the results under a heading
/// that counts them, or the categories to browse before anything is searched.
struct SearchView: PageView {
    /// The level of the heading that counts the results ("3 results for …"), which the
    /// product cards sit under.
    static let resultsLevel = 2

    let query: String
    /// Why the query was refused (too long, control characters), shown beside the field.
    var problem: String? = nil
    let results: [ProductCardView]
    let resultSummary: String
    let recent: [RecentSearchView]
    let categories: [CategoryLinkView]

    static let templateName = "search"
    static let mustacheFields: MustacheFields<SearchView> = [
        "query": .text(\.query),
        "maximumQueryLength": .int { _ in SearchController.queryLimit.characters },
        "hasQuery": .bool { !$0.query.isEmpty && $0.problem == nil },
        "problem": .text(\.problem),
        "results": .list(\.results),
        "hasResults": .bool { !$0.results.isEmpty },
        "resultSummary": .text(\.resultSummary),
        "recent": .list(\.recent),
        "hasRecent": .bool { !$0.recent.isEmpty },
        "categories": .list(\.categories),
        "suggestions": .list(\.suggestions),
        "hasSuggestions": .bool { !$0.categories.isEmpty },
    ]

    /// What "no results" suggests instead: the shop's own largest categories (most products
    /// for sale first, then in catalog order), so the words always come from what it sells.
    var suggestions: [CategoryLinkView] {
        Array(categories.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
            .prefix(Self.suggestionCount).map(\.element))
    }

    /// How many categories "no results" suggests.
    static let suggestionCount = 3

    /// Characters of a query that headings and the title quote; a longer one is cut, with
    /// "…", so a 100-character search does not fill a phone's screen (the field holds it all).
    static let quotedLength = 32

    /// `query` as headings and the title quote it (``quotedLength``).
    static func quoted(_ query: String) -> String {
        query.count <= quotedLength ? query : query.prefix(quotedLength - 1).trimmingWhitespace() + "…"
    }
}

/// One of the session's recent searches, as a link that runs it again.
struct RecentSearchView: MustacheView {
    let text: String
    let href: String

    static let mustacheFields: MustacheFields<RecentSearchView> = ["text": .text(\.text), "href": .text(\.href)]
}
