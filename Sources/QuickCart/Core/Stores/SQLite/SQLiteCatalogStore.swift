import SQLite

/// The catalog in SQLite: the `products` table, with the catalog's version and origin in
/// `settings` (`catalog-version`, `catalog-origin`).
struct SQLiteCatalogStore: CatalogStore {
    let pool: SQLiteStoragePool

    func catalogVersion() throws -> Int64 {
        try pool.withConnection { db in try Self.version(in: db) }
    }

    func loadCatalog() throws -> StoredCatalog {
        try pool.read { db in try Self.load(from: db) }
    }

    @discardableResult
    func importCatalog(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog {
        try pool.write { db in try Self.write(entries, origin: origin, to: db) }
    }

    func importCatalogIfNeverImported(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog {
        try pool.write { db in
            let stored = try Self.load(from: db)
            return stored.origin == nil ? try Self.write(entries, origin: origin, to: db) : stored
        }
    }

    private static func write(_ entries: [CatalogEntry], origin: CatalogOrigin, to db: Database) throws -> StoredCatalog {
        let plan = CatalogImportPlan(
            entries: entries, stored: try db.fetchAll("SELECT slug FROM products ORDER BY position, id") { try $0.string(0) }
        )
        for listed in plan.listed {
            let entry = listed.entry
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
                    entry.isActive, listed.position, entry.image?.fileName, entry.image?.key, entry.image?.width, entry.image?.height,
                ]
            )
        }
        for unlisted in plan.unlisted {
            try db.execute("UPDATE products SET active = 0, position = ? WHERE slug = ?", [unlisted.position, unlisted.slug])
        }
        try db.execute(
            """
            INSERT INTO settings (key, value) VALUES (?, '1')
            ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
            """,
            [CatalogImportPlan.versionKey]
        )
        try db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [CatalogImportPlan.originKey, origin.rawValue]
        )
        return try Self.load(from: db)
    }

    private static func version(in db: Database) throws -> Int64 {
        CatalogImportPlan.version(try db.fetchValue("SELECT value FROM settings WHERE key = ?", [CatalogImportPlan.versionKey], as: String.self))
    }

    private static func load(from db: Database) throws -> StoredCatalog {
        let products = try db.fetchAll("SELECT \(CatalogImportPlan.productColumns) FROM products ORDER BY position, id") { row in
            try CatalogImportPlan.product(from: row)
        }
        let origin = try db.fetchValue("SELECT value FROM settings WHERE key = ?", [CatalogImportPlan.originKey], as: String.self)
        return StoredCatalog(products: products, version: try version(in: db), origin: origin.flatMap(CatalogOrigin.init(rawValue:)))
    }
}
