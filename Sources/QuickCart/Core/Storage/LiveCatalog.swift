import Synchronization

/// The catalog a running shop sells right now, and the cart new sessions start with, swapped
/// whole when an import lands. Every reader sees either the old snapshot or the new one.
///
/// ```swift
/// let liveCatalog = LiveCatalog(try store.loadCatalog(), makeStarterCart: { catalog, origin in
///     origin == .demo ? Cart.demo(from: catalog) : Cart()
/// })
/// let snapshot = liveCatalog.current          // once per request
/// if try liveCatalog.refresh(from: store) { … } // every few seconds: true when an import landed
/// ```
public final class LiveCatalog: Sendable {
    /// One catalog, with what was derived from it. A class, never changed once made: every
    /// request reads the current one, and taking it costs one reference, not one per field.
    public final class Snapshot: Sendable {
        /// The products, with their lookups.
        public let catalog: Catalog
        /// The stored catalog's version: it grows with every import.
        public let version: Int64
        /// Where the catalog came from: the demo, an import, or `nil` before either.
        public let origin: CatalogOrigin?
        /// The cart of a session that has changed nothing yet, under this catalog.
        public let starterCart: Cart

        init(catalog: Catalog, version: Int64, origin: CatalogOrigin?, starterCart: Cart) {
            self.catalog = catalog
            self.version = version
            self.origin = origin
            self.starterCart = starterCart
        }
    }

    private let makeStarterCart: @Sendable (Catalog, CatalogOrigin?) -> Cart
    private let snapshot: Mutex<Snapshot>

    /// - Parameter makeStarterCart: The cart new sessions start with, for a catalog and its origin.
    public init(_ stored: StoredCatalog, makeStarterCart: @escaping @Sendable (Catalog, CatalogOrigin?) -> Cart) {
        self.makeStarterCart = makeStarterCart
        snapshot = Mutex(Self.snapshot(of: stored, makeStarterCart))
    }

    /// The catalog now. Read it once per request and use that value throughout.
    public var current: Snapshot {
        snapshot.withLock { $0 }
    }

    /// Takes `stored` as the current catalog, unless the current one is as new: `stored` must
    /// have a newer version, or the same version from another origin. Two refreshes that
    /// finish out of order so never go back to the older catalog.
    /// - Returns: Whether it was taken.
    @discardableResult
    public func replace(with stored: StoredCatalog) -> Bool {
        let next = Self.snapshot(of: stored, makeStarterCart)
        return snapshot.withLock { current in
            let isNewer = stored.version > current.version || (stored.version == current.version && stored.origin != current.origin)
            guard isNewer else { return false }
            current = next
            return true
        }
    }

    /// Asks `store` for its version and, when it moved, loads and takes the new catalog.
    /// - Returns: Whether a new catalog was taken.
    @discardableResult
    public func refresh(from store: any CatalogStore) throws -> Bool {
        guard try store.catalogVersion() != current.version else { return false }
        return replace(with: try store.loadCatalog())
    }

    private static func snapshot(of stored: StoredCatalog, _ makeStarterCart: (Catalog, CatalogOrigin?) -> Cart) -> Snapshot {
        let catalog = Catalog(products: stored.products)
        return Snapshot(catalog: catalog, version: stored.version, origin: stored.origin, starterCart: makeStarterCart(catalog, stored.origin))
    }
}
