import Synchronization

/// The catalog being sold with what pages build from it (product cards, category links),
/// rebuilt once for each new catalog, by the first request that sees it.
final class LiveCatalog: Sendable {
    /// One catalog and its page parts; a request reads one and uses it throughout.
    struct Shelf: Sendable {
        let catalog: Catalog
        let version: Int64
        let cards: ProductCards
        /// The category links (``SearchController/categoryLinks(in:)``).
        let categoryLinks: [CategoryLinkView]
    }

    private let source: CatalogSource
    private let icons: IconSet
    private let shelf: Mutex<Shelf>

    init(source: CatalogSource, icons: IconSet) {
        self.source = source
        self.icons = icons
        shelf = Mutex(Self.shelf(for: source.current, icons: icons))
    }

    /// The catalog now, with its cards and links.
    var current: Shelf {
        let snapshot = source.current
        return shelf.withLock { shelf in
            // Imports are rare: the one request that meets a new catalog builds its parts.
            if shelf.version != snapshot.version { shelf = Self.shelf(for: snapshot, icons: icons) }
            return shelf
        }
    }

    private static func shelf(for snapshot: CatalogSource.Snapshot, icons: IconSet) -> Shelf {
        Shelf(
            catalog: snapshot.catalog, version: snapshot.version,
            cards: ProductCards(catalog: snapshot.catalog, icons: icons),
            categoryLinks: SearchController.categoryLinks(in: snapshot.catalog)
        )
    }
}
