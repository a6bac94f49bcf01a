import SQLite

/// The catalog in SQLite: the `products` table, with the catalog's version and origin in
/// `settings` (`catalog-version`, `catalog-origin`).
struct SQLiteCatalogStore: CatalogStore {
    let database: SQLiteDatabase

    func catalogVersion() throws -> Int64 {
        try database.withConnection { db in try Self.version(in: db) }
    }

    func loadCatalog() throws -> StoredCatalog {
        try database.read { db in try Self.load(from: db) }
    }

    @discardableResult
    func importCatalog(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog {
        try database.write { db in
            let listed = Set(entries.map(\.slug))
            let others = try db.fetchAll("SELECT slug FROM products ORDER BY position, id") { try $0.string(0) }
                .filter { !listed.contains($0) }
            for (index, entry) in entries.enumerated() {
                try db.execute(
                    """
                    INSERT INTO products (slug, name, summary, category, price_cents, icon, featured, active, position,
                                          image_file, image_key, image_width, image_height)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (slug) DO UPDATE SET
                        name = excluded.name, summary = excluded.summary, category = excluded.category,
                        price_cents = excluded.price_cents, icon = excluded.icon, featured = excluded.featured,
                        active = excluded.active, position = excluded.position, image_file = excluded.image_file,
                        image_key = excluded.image_key, image_width = excluded.image_width, image_height = excluded.image_height
                    """,
                    [
                        entry.slug, entry.name, entry.summary, entry.category, entry.price, entry.icon, entry.isFeatured,
                        entry.isActive, Int64(index + 1), entry.image?.fileName, entry.image?.key, entry.image?.width, entry.image?.height,
                    ]
                )
            }
            // Carts and past orders point at these: they stay, out of sale, after the listed ones.
            for (offset, slug) in others.enumerated() {
                try db.execute("UPDATE products SET active = 0, position = ? WHERE slug = ?", [Int64(entries.count + offset + 1), slug])
            }
            try db.execute(
                """
                INSERT INTO settings (key, value) VALUES ('catalog-version', '1')
                ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
                """
            )
            try db.execute(
                "INSERT INTO settings (key, value) VALUES ('catalog-origin', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [origin.rawValue]
            )
            return try Self.load(from: db)
        }
    }

    private static func version(in db: Database) throws -> Int64 {
        let text = try db.fetchValue("SELECT value FROM settings WHERE key = 'catalog-version'", as: String.self)
        return text.flatMap { Int64($0) } ?? 0
    }

    private static func load(from db: Database) throws -> StoredCatalog {
        let products = try db.fetchAll(
            """
            SELECT id, slug, name, summary, category, price_cents, icon, featured, active,
                   image_file, image_key, image_width, image_height
            FROM products ORDER BY position, id
            """
        ) { row in
            var image: ProductImage?
            if !(try row.isNull(9)), !(try row.isNull(10)) {
                image = ProductImage(fileName: try row.string(9), key: try row.string(10), width: try row.int(11), height: try row.int(12))
            }
            return Product(
                id: try row.int64(0), slug: try row.string(1), name: try row.string(2), summary: try row.string(3),
                category: try row.string(4), price: try row.get(5), icon: try row.string(6), isFeatured: try row.bool(7),
                isActive: try row.bool(8), image: image
            )
        }
        let origin = try db.fetchValue("SELECT value FROM settings WHERE key = 'catalog-origin'", as: String.self)
        return StoredCatalog(products: products, version: try version(in: db), origin: origin.flatMap(CatalogOrigin.init(rawValue:)))
    }
}
