@testable import QuickCart
import Testing

/// Product search and clearing recent searches, written once and run against each backend in
/// ``StoreBackend``: the engines differ (FTS5 with porter stemming, PostgreSQL's English text
/// search), what a shopper finds does not.
@Suite("Search stores")
struct SearchStoreTests {
    private let now = TestSessions.start

    /// The names `query` finds, best first.
    private static func names(_ storage: any ShopStorage, _ query: String) throws -> [String] {
        try storage.productSearch.searchProducts(matching: query, limit: 50).map { id in
            try #require(storage.liveCatalog.current.catalog.product(id: id), "an id that is not in the catalog: \(id)").name
        }
    }

    @Test("Plurals and other forms of a word find it: “tents” and “tent” find the Ultralight Tent", arguments: StoreBackend.allCases)
    func stemming(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        for query in ["tents", "tent", "Tent", "TENTS", "  tents  "] {
            #expect(try Self.names(storage, query).first == "Ultralight Tent", "“\(query)”")
        }
        #expect(try Self.names(storage, "boot").contains("Hiking Boots"))
        #expect(try Self.names(storage, "lenses").contains("Sport Sunglasses"), "“lenses” is in the description")
        #expect(try Self.names(storage, "camping").contains("Ultralight Tent"), "the category is searched")
    }

    @Test("Every word must match", arguments: StoreBackend.allCases)
    func everyWordMatches(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let both = try Self.names(storage, "running socks")
        #expect(both == ["Merino Running Socks"], "found \(both)")
        #expect(try Self.names(storage, "tent zzyzx") == [])
        // Words too common to search for are left out the same way on every backend.
        #expect(try Self.names(storage, "tent for two") == ["Ultralight Tent"])
        #expect(try Self.names(storage, "The Ultralight Tent") == ["Ultralight Tent"])
        // A common word as the last, being typed, is searched as the start of a word: "a" is
        // every product with a word starting with "a" (a, aluminium, apparel…).
        let startingWithA = try Self.names(storage, "a")
        #expect(startingWithA.count >= 13 && startingWithA.contains("Gravel Bike") && startingWithA.contains("Ultralight Tent"),
                "found \(startingWithA)")
        #expect(!startingWithA.contains("Merino Running Socks"), "no word of the socks starts with “a”: \(startingWithA)")
        #expect(try Self.names(storage, "zzyzx") == [])
    }

    @Test("The last word also matches as the start of a word, as it is typed", arguments: StoreBackend.allCases)
    func lastWordIsAPrefix(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        #expect(try Self.names(storage, "ultralight te") == ["Ultralight Tent"])
        #expect(try Self.names(storage, "headl") == ["Rechargeable Headlamp"])
        #expect(try Self.names(storage, "te ultralight") == [], "only the last word is a prefix")
    }

    @Test("The last word, being typed, matches the start of a word as written, not only of its stem: “runn”, “hiki”, “insula”",
          arguments: StoreBackend.allCases)
    func partWordsAsWritten(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let pairs = [("runn", "running"), ("runni", "running"), ("hiki", "hiking"), ("hikin", "hiking"), ("cycli", "cycling"), ("insula", "insulated")]
        for (part, word) in pairs {
            let whole = try Self.names(storage, word)
            #expect(!whole.isEmpty, "“\(word)” finds something")
            #expect(Set(try Self.names(storage, part)).isSuperset(of: whole), "“\(part)” finds what “\(word)” finds")
        }
        #expect(try Self.names(storage, "merino runn") == ["Merino Running Socks"], "the other words still must match")
        #expect(try Self.names(storage, "runn merino") == [], "only the last word is a prefix")
    }

    @Test("No query is search syntax or an error: prepended letters, quotes, operators, marks", arguments: StoreBackend.allCases)
    func neverSyntax(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        for query in ["\u{0D4E}\"\u{0D4E}:", "\u{0D4E}&", "\u{0D4E}(", "\u{0D4E}|!", "a\u{0301}\"", "\u{0301}\"x", "5\u{20E3}", "3\u{0338}",
                      "tent\u{0D4E}*", "NEAR(tent", "\"\"", "':*", "x & !y", "\u{0D4E}\\"] {
            _ = try storage.productSearch.searchProducts(matching: query, limit: 5)
        }
        #expect(try Self.names(storage, "\"tent\" OR AND") == [], "OR and AND are plain words")
    }

    @Test("Results are ranked: a match in the name comes before one in a description", arguments: StoreBackend.allCases)
    func ranked(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        // "pack" names one product; three more say "pack" or "packs" in their descriptions.
        let packs = try Self.names(storage, "pack")
        #expect(packs.first == "Hiking Pack 45L", "found \(packs)")
        #expect(Set(packs.dropFirst()) == ["Daypack 22L", "Rain Shell Jacket", "Ultralight Tent"], "found \(packs)")
        // The category Hydration (weighted above descriptions) before the daypack's "hydration sleeve".
        let hydration = try Self.names(storage, "hydration")
        #expect(hydration.count == 5 && hydration.last == "Daypack 22L", "found \(hydration)")
    }

    @Test("Quotes, operators and punctuation in a query never fail and are not search syntax",
          arguments: StoreBackend.allCases)
    func syntaxIsText(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        for query in ["\"tent", "tent\"", "tent OR shoes", "tent AND", "NOT tent", "tent*", "*", "(tent", "tent)", "tent:*",
                      "name:tent", "!tent", "tent & | !", "'tent'", "tent -", "-tent", "^tent", "NEAR(tent shoes)", "tent\u{0}",
                      "\\", "''", ":", "@@", "\"\"\"", "té́nt", "日本語", "tent " + String(repeating: "a ", count: 40)] {
            #expect(throws: Never.self, "“\(query)”") { _ = try Self.names(storage, query) }
        }
        #expect(try Self.names(storage, "\"tents\"") == ["Ultralight Tent"])
        #expect(try Self.names(storage, "tent OR shoes") == [], "OR is a word that must match, not an operator")
        #expect(try Self.names(storage, "ultralight-tent") == ["Ultralight Tent"])
        #expect(try Self.names(storage, "!!!") == [])
        #expect(try Self.names(storage, "") == [])
    }

    @Test("The limit caps the results", arguments: StoreBackend.allCases)
    func limit(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        #expect(try storage.productSearch.searchProducts(matching: "running", limit: 2).count == 2)
    }

    @Test("Clearing forgets the session's recent searches and no one else's", arguments: StoreBackend.allCases)
    func clearRecentSearches(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let session = TestSessions.new()
        let other = TestSessions.new()
        try storage.sessions.setDisplayName("Ada", for: session, at: now)
        try storage.sessions.setDisplayName("Bo", for: other, at: now)
        let stored = TestSessions.stored(session)
        let otherStored = TestSessions.stored(other)
        for query in ["tent", "shoes"] {
            try storage.searches.recordSearch(query, for: stored, at: now * 1000)
            try storage.searches.recordSearch(query, for: otherStored, at: now * 1000)
        }
        try storage.searches.clearSearches(for: stored, at: now)
        #expect(try storage.searches.recentSearches(for: stored) == [])
        #expect(try storage.searches.recentSearches(for: otherStored) == ["shoes", "tent"])
        try storage.searches.recordSearch("bottle", for: stored, at: now * 1000 + 1)
        #expect(try storage.searches.recentSearches(for: stored) == ["bottle"], "searching goes on after clearing")
        try storage.searches.clearSearches(for: TestSessions.new(), at: now)
        #expect(try storage.searches.recentSearches(for: otherStored) == ["shoes", "tent"])
    }

    @Test("The searches waiting in a session's cookie are stored by its first change, once, and a join takes them into the cart joined",
          arguments: StoreBackend.allCases)
    func waitingSearchesStoredWithTheSession(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        var session = TestSessions.new()
        session.waitingSearches = ["lamp", "Tent"]
        try storage.sessions.setDisplayName("Ada", for: session, at: now)
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(session)) == ["lamp", "Tent"], "\(backend)")
        // A first change that read the session before this one stored it stores no searches of its own.
        var racing = session
        racing.waitingSearches = ["crowbar"]
        try storage.sessions.setDisplayName("Ada", for: racing, at: now + 1)
        #expect(try storage.searches.recentSearches(for: TestSessions.stored(session)) == ["lamp", "Tent"], "\(backend)")

        // A browser never stored joins: its searches go into the shopper's, new words first, words
        // the shopper has (in any case) where they were.
        let shopper = TestSessions.stored(session)
        try storage.searches.recordSearch("stove", for: shopper, at: now * 1000 + 2_000)
        try storage.joinCodes.createCode(hash: "hash-s", nonce: "nonce-s", for: shopper, at: now + 2)
        var joining = TestSessions.new()
        joining.waitingSearches = ["rope", "tent"]
        guard case .joined = try storage.joinCodes.join(hash: "hash-s", for: joining, renamingTo: nil, at: now + 3) else {
            Issue.record("\(backend): the join failed")
            return
        }
        #expect(try storage.searches.recentSearches(for: shopper) == ["rope", "stove", "lamp", "Tent"], "\(backend)")
    }

    @Test("An import stays searchable with no code of its own: new words found, old ones gone, inactive products never",
          arguments: StoreBackend.allCases)
    func importsStaySearchable(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let catalog = try storage.catalogStore.loadCatalog()
        let tent = try #require(catalog.products.first { $0.slug == "ultralight-tent" })
        func entry(_ product: Product, name: String? = nil, summary: String? = nil) -> CatalogEntry {
            CatalogEntry(
                slug: product.slug, name: name ?? product.name, summary: summary ?? product.summary, category: product.category,
                price: product.price, icon: product.icon, isFeatured: product.isFeatured, isActive: true, image: nil
            )
        }
        let chair = CatalogEntry(
            slug: "camp-chair", name: "Camp Chair", summary: "Folds flat into a pouch.", category: "Camping",
            price: Money(cents: 4_500), icon: "tent", isFeatured: false, isActive: true, image: nil
        )
        // Everything but the tent and the bottle is left out (inactive); the tent gets new words.
        let bottle = try #require(catalog.products.first { $0.slug == "insulated-water-bottle" })
        let imported = try storage.catalogStore.importCatalog(
            [entry(tent, name: "Ultralight Shelter", summary: "A two-person shelter."), chair, entry(bottle)], origin: .own
        )
        let ids = { (query: String) in try storage.productSearch.searchProducts(matching: query, limit: 50) }
        let chairID = try #require(imported.products.first { $0.slug == "camp-chair" }?.id)
        #expect(try ids("chairs") == [chairID], "a new product is found, by another form of its word")
        #expect(try ids("pouches") == [chairID])
        #expect(try ids("shelters") == [tent.id], "changed words are found")
        #expect(try ids("tent") == [], "words no product has any more are not")
        #expect(try ids("running") == [], "inactive products are never found")
        #expect(try ids("bottle") == [bottle.id])
    }

    @Test("Capitals beyond ASCII fold on both backends: “éclair” finds “ÉCLAIR”", arguments: StoreBackend.allCases)
    func unicodeCase(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let lantern = CatalogEntry(
            slug: "eclair-lantern", name: "ÉCLAIR Lantern", summary: "Made in İZMİR.", category: "Camping",
            price: Money(cents: 2_900), icon: "tent", isFeatured: false, isActive: true, image: nil
        )
        let imported = try storage.catalogStore.importCatalog([lantern], origin: .own)
        let lanternID = try #require(imported.products.first { $0.slug == "eclair-lantern" }?.id)
        for query in ["éclair", "ÉCLAIR", "Éclair lantern", "écl"] {
            #expect(try storage.productSearch.searchProducts(matching: query, limit: 5) == [lanternID], "“\(query)”")
        }
    }
}
