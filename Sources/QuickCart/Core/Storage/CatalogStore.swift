/// Where the catalog came from: what decides whether new carts start with the demo cart.
public enum CatalogOrigin: String, Sendable, Equatable {
    /// The demo catalog shipped in `Catalog/demo.csv`, loaded into a new database.
    case demo
    /// A catalog the operator imported (`quickcart catalog import`).
    case own
}

/// One product as an import writes it: matched to a stored product by ``slug``.
public struct CatalogEntry: Sendable, Equatable {
    public var slug: String
    public var name: String
    public var summary: String
    public var category: String
    public var price: Money
    public var icon: String
    public var isFeatured: Bool
    public var isActive: Bool
    public var image: ProductImage?

    public init(
        slug: String, name: String, summary: String, category: String, price: Money, icon: String,
        isFeatured: Bool, isActive: Bool, image: ProductImage?
    ) {
        self.slug = slug
        self.name = name
        self.summary = summary
        self.category = category
        self.price = price
        self.icon = icon
        self.isFeatured = isFeatured
        self.isActive = isActive
        self.image = image
    }
}

/// The catalog as stored, read at one moment.
public struct StoredCatalog: Sendable {
    /// Every product, inactive ones too, in catalog order.
    public var products: [Product]
    /// Grows with every import; servers poll it (``CatalogStore/catalogVersion()``) to notice one.
    public var version: Int64
    /// `nil` until a catalog was first imported.
    public var origin: CatalogOrigin?

    public init(products: [Product], version: Int64, origin: CatalogOrigin?) {
        self.products = products
        self.version = version
        self.origin = origin
    }
}

/// The products for sale, as storage keeps them; changed only by imports.
public protocol CatalogStore: Sendable {
    /// The catalog's version: cheap enough to ask every few seconds. It changes with each
    /// ``importCatalog(_:origin:)`` on any instance sharing the storage.
    func catalogVersion() throws -> Int64

    /// Every product with the catalog's version and origin, in one snapshot.
    func loadCatalog() throws -> StoredCatalog

    /// Replaces the catalog in ONE transaction: each entry is inserted, or updated in place
    /// when a product with its slug exists (keeping its id); products whose slug is not among
    /// `entries` become inactive, never deleted. Catalog order becomes the order of `entries`,
    /// followed by the inactive rest in their old order. Bumps the version and records `origin`.
    /// - Returns: The catalog as committed.
    @discardableResult
    func importCatalog(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog

    /// ``importCatalog(_:origin:)``, in one transaction with the check that no catalog was ever
    /// imported: instances starting together on a new database seed it once, and never over an
    /// import that ran meanwhile.
    /// - Returns: The catalog as committed, or as stored when one was imported before.
    func importCatalogIfNeverImported(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog
}
