import SQLite

/// Reads the catalog from SQLite once, at start.
enum CatalogStore {
    static func load(from pool: DatabasePool) throws -> Catalog {
        let products = try pool.read { db in
            try db.fetchAll("SELECT id, slug, name, summary, category, price_cents, icon, featured FROM products ORDER BY id") { row in
                Product(
                    id: try row.int64(0), slug: try row.string(1), name: try row.string(2), summary: try row.string(3),
                    category: try row.string(4), price: try row.get(5), icon: try row.string(6), isFeatured: try row.bool(7)
                )
            }
        }
        return Catalog(products: products)
    }
}
