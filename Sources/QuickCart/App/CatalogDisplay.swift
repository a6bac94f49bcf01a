import Synchronization

/// The catalog being sold as the pages display it: the products with their product cards and
/// category links, rebuilt once for each new catalog, by the first request that sees it.
final class CatalogDisplay: Sendable {
    /// One catalog and its page parts; a request reads one and uses it throughout. A class,
    /// never changed once made, so that taking it costs one reference, not one per field.
    final class Snapshot: Sendable {
        let catalog: Catalog
        let version: Int64
        let cards: ProductCards
        /// The category links (``SearchController/categoryLinks(in:)``).
        let categoryLinks: [CategoryLinkView]

        init(catalog: Catalog, version: Int64, cards: ProductCards, categoryLinks: [CategoryLinkView]) {
            self.catalog = catalog
            self.version = version
            self.cards = cards
            self.categoryLinks = categoryLinks
        }
    }

    private let liveCatalog: LiveCatalog
    private let icons: IconSet
    private let snapshot: Mutex<Snapshot>

    init(liveCatalog: LiveCatalog, icons: IconSet) {
        self.liveCatalog = liveCatalog
        self.icons = icons
        snapshot = Mutex(Self.snapshot(for: liveCatalog.current, icons: icons))
    }

    /// The catalog now, with its cards and links.
    var current: Snapshot {
        let live = liveCatalog.current
        return snapshot.withLock { snapshot in
            // Imports are rare: the one request that meets a new catalog builds its parts.
            if snapshot.version != live.version { snapshot = Self.snapshot(for: live, icons: icons) }
            return snapshot
        }
    }

    private static func snapshot(for live: LiveCatalog.Snapshot, icons: IconSet) -> Snapshot {
        Snapshot(
            catalog: live.catalog, version: live.version,
            cards: ProductCards(catalog: live.catalog, icons: icons),
            categoryLinks: SearchController.categoryLinks(in: live.catalog)
        )
    }
}
