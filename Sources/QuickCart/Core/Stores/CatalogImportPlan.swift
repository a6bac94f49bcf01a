/// What a catalog import does, the same on every backend (each keeps only its SQL): the listed
/// entries, in the file's order, take positions 1…n with their values (a new slug is a new
/// product, a known one is updated in place); every other product stored stays, since carts and
/// past orders point at it, out of sale and after the listed ones, in its old order. The
/// catalog's version then grows by one and its origin becomes the import's.
struct CatalogImportPlan {
    /// A product the file lists, with its place.
    struct Listed {
        let entry: CatalogEntry
        let position: Int64
    }

    /// A stored product the file leaves out: it stays, inactive, at its new place.
    struct Unlisted {
        let slug: String
        let position: Int64
    }

    let listed: [Listed]
    let unlisted: [Unlisted]

    /// - Parameters:
    ///   - entries: The file's products, in its order.
    ///   - stored: Every stored product's slug, in the catalog's order (position, then id).
    init(entries: [CatalogEntry], stored: [String]) {
        listed = entries.enumerated().map { Listed(entry: $1, position: Int64($0 + 1)) }
        let slugs = Set(entries.map(\.slug))
        unlisted = stored.filter { !slugs.contains($0) }.enumerated().map { Unlisted(slug: $1, position: Int64(entries.count + $0 + 1)) }
    }

    /// The settings rows that hold the catalog's version and origin.
    static let versionKey = "catalog-version"
    static let originKey = "catalog-origin"

    /// The columns the stores select for each product, in ``product(from:)``'s order.
    static let productColumns = """
        id, slug, name, summary, category, price_cents, icon, featured, active,
               image_file, image_key, image_width, image_height
        """

    /// A product from a row of ``productColumns``; its photo only when both its file and key are there.
    static func product<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> Product {
        var image: ProductImage?
        if !(try row.isNull(9)), !(try row.isNull(10)) {
            image = ProductImage(fileName: try row.string(9), key: try row.string(10), width: try row.int(11), height: try row.int(12))
        }
        return Product(
            id: try row.int64(0), slug: try row.string(1), name: try row.string(2), summary: try row.string(3),
            category: try row.string(4), price: Money(cents: try row.int64(5)), icon: try row.string(6), isFeatured: try row.bool(7),
            isActive: try row.bool(8), image: image
        )
    }

    /// The stored version's text as a number: 0 before the first import.
    static func version(_ stored: String?) -> Int64 {
        stored.flatMap { Int64($0) } ?? 0
    }
}
