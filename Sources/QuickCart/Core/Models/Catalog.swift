/// Everything the shop sells, held in memory: the catalog is seeded by a migration and does
/// not change while the server runs, so pages read it without touching the database.
public struct Catalog: Sendable {
    /// A category with its products, in catalog order.
    public struct Category: Sendable {
        public let name: String
        public let products: [Product]
    }

    /// Every product, in catalog order.
    public let products: [Product]
    /// The products Home features.
    public let featured: [Product]
    /// Categories in order of first appearance.
    public let categories: [Category]
    private let byID: [Int64: Product]
    private let bySlug: [String: Product]

    /// Creates a catalog from products in display order.
    public init(products: [Product]) {
        self.products = products
        featured = products.filter(\.isFeatured)
        var names: [String] = []
        var members: [String: [Product]] = [:]
        for product in products {
            if members[product.category] == nil { names.append(product.category) }
            members[product.category, default: []].append(product)
        }
        categories = names.map { Category(name: $0, products: members[$0] ?? []) }
        byID = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
        bySlug = Dictionary(uniqueKeysWithValues: products.map { ($0.slug, $0) })
    }

    public func product(id: Int64) -> Product? { byID[id] }

    public func product(slug: String) -> Product? { bySlug[slug] }
}
