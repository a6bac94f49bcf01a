/// Everything the shop sells, held in memory so pages read it without touching the database.
/// An import replaces it while the server runs (see ``LiveCatalog``); each request reads one
/// catalog and uses it throughout.
public struct Catalog: Sendable {
    /// A category with its products, in catalog order.
    public struct Category: Sendable {
        public let name: String
        public let products: [Product]
    }

    /// Every product for sale (active), in catalog order.
    public let products: [Product]
    /// Every product, inactive ones too, in catalog order: what an export writes.
    public let allProducts: [Product]
    /// The products Home features.
    public let featured: [Product]
    /// Categories of products for sale, in order of first appearance.
    public let categories: [Category]
    private let byID: [Int64: Product]
    private let bySlug: [String: Product]

    /// Creates a catalog from products in display order, inactive ones included.
    public init(products: [Product]) {
        allProducts = products
        self.products = products.filter(\.isActive)
        featured = self.products.filter(\.isFeatured)
        var names: [String] = []
        var members: [String: [Product]] = [:]
        for product in self.products {
            if members[product.category] == nil { names.append(product.category) }
            members[product.category, default: []].append(product)
        }
        categories = names.map { Category(name: $0, products: members[$0] ?? []) }
        byID = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        bySlug = Dictionary(products.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The product with `id`, for sale or not (carts and orders may name an inactive one).
    public func product(id: Int64) -> Product? { byID[id] }

    /// The product with `slug`, for sale or not.
    public func product(slug: String) -> Product? { bySlug[slug] }
}
