import Foundation
import MicroHTTP

/// The Search tab: a search form, matching products with add buttons, and the session's
/// recent searches.
struct SearchController: Sendable {
    /// Searches are at most 100 characters and 400 UTF-8 bytes (``TextLimit``).
    static let queryLimit = TextLimit(characters: 100, bytes: 400)

    let shelf: LiveCatalog
    let searches: any SearchHistoryStore
    /// Searches of sessions not stored yet.
    let pending: PendingSearches
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let query = (request.http.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.queryLimit.admits(query) else {
            throw HTTPError(.badRequest, "Searches are limited to \(Self.queryLimit.characters) characters.")
        }
        guard !query.containsControlCharacter else {
            throw HTTPError(.badRequest, "The search contains control characters.")
        }
        let session = request.session
        let recent = try recentSearches(adding: query, request)
        let cart = request.cart
        let shelf = shelf.current
        let results = shelf.catalog.search(query)
        var returnTo = "/search"
        if !query.isEmpty { returnTo = Self.href(for: query) }
        let content = SearchView(
            query: query,
            results: shelf.cards.views(results, cart: cart, under: SearchView.resultsLevel),
            resultSummary: Self.summary(count: results.count, query: query),
            recent: recent.map { RecentSearchView(text: $0, href: Self.href(for: $0)) },
            categories: shelf.categoryLinks
        )
        let title = query.isEmpty ? "Search" : "“\(query)” – Search"
        return pages.render(
            content, .init(title: title, tab: .search, cartCount: cart.itemCount, returnTo: returnTo),
            session: session, places: request.places, notice: request.notice
        )
    }

    /// The session's recent searches, newest first, with `query` (when not empty) as the newest.
    ///
    /// Searching is reading, so it never stores a session: a crawler following the category
    /// links costs no storage. Until its first change a session's searches wait in memory
    /// (``PendingSearches``; only for a session that came back with its cookie), and move into
    /// storage with its first search after that change.
    private func recentSearches(adding query: String, _ request: ShopRequest) throws -> [String] {
        let session = request.session
        guard session.isStored else {
            guard !request.isNewSession else { return [] }
            if !query.isEmpty { pending.record(query, for: session.storageID) }
            return pending.recent(for: session.storageID)
        }
        for waiting in pending.take(for: session.storageID).reversed() {
            try searches.recordSearch(waiting, for: session, at: request.nowMilliseconds)
        }
        if !query.isEmpty { try searches.recordSearch(query, for: session, at: request.nowMilliseconds) }
        return try searches.recentSearches(for: session)
    }

    /// A link to each category's search, with its product count, for Home and Search.
    static func categoryLinks(in catalog: Catalog) -> [CategoryLinkView] {
        catalog.categories.map { category in
            CategoryLinkView(name: category.name, href: href(for: category.name), count: category.products.count)
        }
    }

    /// The address of a search for `query`.
    static func href(for query: String) -> String {
        "/search?q=" + (query.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
    }

    /// RFC 3986's unreserved characters; built once, as building a set is costly.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func summary(count: Int, query: String) -> String {
        switch count {
        case 0: "No results for “\(query)”"
        case 1: "1 result for “\(query)”"
        default: "\(count) results for “\(query)”"
        }
    }
}
