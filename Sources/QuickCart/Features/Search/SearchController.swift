import MicroHTTP

extension SearchController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let search = SearchController(
            catalogDisplay: shop.catalogDisplay, searches: shop.storage.searches, waiting: shop.recentSearchCookies,
            productSearch: shop.storage.productSearch, page: try shop.pages.page(SearchView.self, tab: .search)
        )
        routes.get(tab.path, use: search.show)
        routes.post(tab.path("/recent/clear"), use: search.clearRecent)
    }

    private static let tab = TabBar.TabID.search
}

/// The Search tab: a search form, matching products with add buttons, and the session's
/// recent searches.
struct SearchController: Sendable {
    /// Searches are at most 100 characters and 400 UTF-8 bytes (``TextLimit``).
    static let queryLimit = TextLimit(characters: 100, bytes: 400)

    /// At most this many results are shown.
    static let resultLimit = 50

    let catalogDisplay: CatalogDisplay
    let searches: any SearchHistoryStore
    /// Searches of sessions not stored yet.
    let waiting: RecentSearchCookies
    let productSearch: any ProductSearchStore
    let page: ShopPage<SearchView>

    /// `GET /search?q=…`. The page reads the session with its cart (one read), then runs the
    /// search as a second statement, and reads the recent searches.
    func show(_ request: ShopRequest) throws -> Response {
        // Bidirectional controls find nothing, and in the title or Recent they would reorder the
        // text around them: a search is read without them.
        let query = (request.http.query["q"] ?? "").removingBidiControls.trimmingWhitespace()
        if let problem = Self.problem(with: query) {
            return try refuse(query, because: problem, request)
        }
        let (recent, cookie) = try recentSearches(adding: query, request)
        let display = catalogDisplay.current
        // Products for sale only: the store leaves inactive ones out, and the catalog this
        // request reads (an import may have landed between the two) has the last word.
        let results = try productSearch.searchProducts(matching: query, limit: Self.resultLimit)
            .compactMap { display.catalog.product(id: $0) }.filter(\.isActive)
        let returnTo = query.isEmpty ? Self.tab.path : Self.href(for: query)
        let content = SearchView(
            query: query,
            problem: nil,
            results: display.cards.views(results, cart: request.cart, under: SearchView.resultsLevel),
            resultSummary: Self.summary(count: results.count, query: query),
            recent: recent.map { RecentSearchView(text: $0, href: Self.href(for: $0)) },
            categories: display.categoryLinks
        )
        let title = query.isEmpty ? "Search" : "“\(SearchView.quoted(query))” – Search"
        var response = page.render(content, title: title, returnTo: returnTo, for: request)
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// `POST /search/recent/clear`: forgets the session's recent searches (stored, or waiting
    /// in their cookie), back to Search. It stores a session not stored yet, as any change
    /// does (and so the router clears the cookie), so that no copy of that cookie brings them back.
    func clearRecent(_ request: ShopRequest) throws -> Response {
        try searches.clearSearches(for: request.session, at: request.now)
        return .redirect(to: request.returnPath(default: Self.tab.path))
    }

    /// Why `query` cannot be searched, in words for the shopper, or `nil` when it can.
    static func problem(with query: String) -> String? {
        if !queryLimit.admits(query) {
            return "Searches are limited to \(queryLimit.characters) characters. Shorten it and try again."
        }
        if query.containsControlCharacter {
            return "The search contains characters that cannot be typed, such as line breaks. Remove them and try again."
        }
        return nil
    }

    /// The Search page again with 400: the query stays in the field (less any control
    /// characters, which a page cannot hold) with the reason beside it, and nothing is searched
    /// or remembered.
    private func refuse(_ query: String, because problem: String, _ request: ShopRequest) throws -> Response {
        let shown = String(String.UnicodeScalarView(query.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        let content = SearchView(
            query: shown,
            problem: problem,
            results: [],
            resultSummary: "",
            recent: try recentSearches(adding: "", request).searches.map { RecentSearchView(text: $0, href: Self.href(for: $0)) },
            categories: catalogDisplay.current.categoryLinks
        )
        return page.render(content, title: "Search", returnTo: Self.tab.path, for: request, status: .badRequest)
    }

    /// The session's recent searches, newest first, with `query` (when not empty, and asked
    /// for by this shop's own pages or the shopper, ``ShopRequest/isSameSite``) as the newest.
    /// A search that another site's link made shows its results but is not remembered: its
    /// words would otherwise head Recent as if the shopper had typed them.
    ///
    /// Searching is reading, so it never stores a session: a crawler following the category
    /// links costs no storage. Until its first change a session's searches wait in a cookie
    /// (``RecentSearchCookies``; only for a session that came back with its cookie), which
    /// that change stores with it. Returns the cookie to set, if the waiting searches changed.
    private func recentSearches(adding query: String, _ request: ShopRequest) throws -> (searches: [String], cookie: Cookie?) {
        let session = request.session
        let remembers = !query.isEmpty && request.isSameSite
        guard session.isStored else {
            guard !request.isNewSession else { return ([], nil) }
            var recent = session.waitingSearches
            guard remembers else { return (recent, nil) }
            // Storage's rule: the same words in another case replace the older spelling.
            recent.removeAll { $0.lowercased() == query.lowercased() }
            recent.insert(query, at: 0)
            let kept = waiting.keeping(recent, forClient: session.clientID)
            return (kept.kept, kept.cookie)
        }
        // A stored session's searches are all in storage: a cookie of them it still sends (an
        // old copy, or one a tab wrote while the first change was on its way) adds nothing.
        let cookie = waiting.isCarried(by: request.http) ? waiting.clearingCookie() : nil
        if remembers { try searches.recordSearch(query, for: session, at: request.nowMilliseconds) }
        return (try searches.recentSearches(for: session), cookie)
    }

    /// A link to each category's search, with its product count, for Home and Search.
    static func categoryLinks(in catalog: Catalog) -> [CategoryLinkView] {
        catalog.categories.map { category in
            CategoryLinkView(name: category.name, href: href(for: category.name), count: category.products.count)
        }
    }

    /// The address of a search for `query`.
    static func href(for query: String) -> String {
        tab.path("?q=") + PercentEncoding.encodingAllButUnreserved(query)
    }

    private static func summary(count: Int, query fullQuery: String) -> String {
        let query = SearchView.quoted(fullQuery)
        return switch count {
        case 0: "No results for “\(query)”"
        case 1: "1 result for “\(query)”"
        default: "\(count) results for “\(query)”"
        }
    }
}
