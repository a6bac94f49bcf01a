import Foundation
import MicroHTTP
import Mustache

/// The Search tab: a search form, matching products with add buttons, and the session's
/// recent searches.
struct SearchController: Sendable {
    static let maximumQueryLength = 100

    let catalog: Catalog
    let carts: CartStore
    let sessions: SessionStore
    let pages: PageRenderer
    let cards: ProductCards
    /// The category links, built once (``categoryLinks(in:)``).
    let categoryLinks: MustacheValue

    func show(_ request: ShopRequest) throws -> Response {
        let query = (request.http.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard query.count <= Self.maximumQueryLength else {
            throw HTTPError(.badRequest, "Searches are limited to \(Self.maximumQueryLength) characters.")
        }
        guard !query.containsControlCharacter else {
            throw HTTPError(.badRequest, "The search contains control characters.")
        }
        var session = request.session
        if !query.isEmpty {
            try sessions.recordSearch(query, for: session, at: request.nowMilliseconds)
            session.isStored = true
        }
        let cart = try carts.cart(for: session)
        let results = catalog.search(query)
        let recent = try sessions.recentSearches(for: session)
        var returnTo = "/search"
        if !query.isEmpty { returnTo = Self.href(for: query) }
        let content: MustacheValue = .object([
            "query": .string(query),
            "maximumQueryLength": .int(Self.maximumQueryLength),
            "hasQuery": .bool(!query.isEmpty),
            "results": cards.list(results, cart: cart),
            "hasResults": .bool(!results.isEmpty),
            "resultSummary": .string(Self.summary(count: results.count, query: query)),
            "recent": .array(recent.map { .object(["text": .string($0), "href": .string(Self.href(for: $0))]) }),
            "hasRecent": .bool(!recent.isEmpty),
            "categories": categoryLinks,
            "csrf": .string(session.csrfToken),
            "returnTo": .string(returnTo),
        ])
        let title = query.isEmpty ? "Search" : "“\(query)” – Search"
        var response = pages.render(
            .init(template: "search", title: title, tab: .search, cartCount: cart.itemCount, content: content, returnTo: returnTo),
            session: session, places: request.places, notice: request.notice
        )
        // The Search tab returns here from the other tabs (see ShopRequest.places).
        response.setCookie(Cookie(name: ShopRequest.searchPlaceCookie, value: returnTo, path: "/", maxAge: query.isEmpty ? 0 : nil))
        return response
    }

    /// A link to each category's search, with its product count, for Home and Search.
    static func categoryLinks(in catalog: Catalog) -> MustacheValue {
        .array(catalog.categories.map { category in
            .object([
                "name": .string(category.name),
                "href": .string(href(for: category.name)),
                "count": .int(category.products.count),
            ])
        })
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
