import Postgres

/// The catalog in PostgreSQL: the `products` table, with the catalog's version and origin in
/// `settings` (`catalog-version`, `catalog-origin`), as in SQLite. Every instance of a cluster
/// polls the version, so an import through any of them reaches all.
struct PostgresCatalogStore: CatalogStore {
    /// The advisory lock an import holds, so two imports run one after the other: "QCIMPORT".
    static let importLockKey: Int64 = 0x5143_494D_504F_5254

    let database: PostgresDatabase

    func catalogVersion() throws -> Int64 {
        try database.withConnection { connection in try Self.version(in: connection) }
    }

    func loadCatalog() throws -> StoredCatalog {
        // One snapshot for the version and the products.
        try PostgresDatabase.mapping {
            try database.pool.transaction(.repeatableRead, maximumAttempts: PostgresDatabase.maximumAttempts) { connection in
                try Self.load(from: connection)
            }
        }
    }

    @discardableResult
    func importCatalog(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog {
        try database.write { connection in
            _ = try connection.fetchValue("SELECT pg_advisory_xact_lock($1)::text", Self.importLockKey, as: String.self)
            let listed = Set(entries.map(\.slug))
            let others = try connection.fetchAll("SELECT slug FROM products ORDER BY position, id") { try $0.string(0) }
                .filter { !listed.contains($0) }
            for (index, entry) in entries.enumerated() {
                try connection.execute(
                    """
                    INSERT INTO products (slug, name, summary, category, price_cents, icon, featured, active, position,
                                          image_file, image_key, image_width, image_height)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                    ON CONFLICT (slug) DO UPDATE SET
                        name = excluded.name, summary = excluded.summary, category = excluded.category,
                        price_cents = excluded.price_cents, icon = excluded.icon, featured = excluded.featured,
                        active = excluded.active, position = excluded.position, image_file = excluded.image_file,
                        image_key = excluded.image_key, image_width = excluded.image_width, image_height = excluded.image_height
                    """,
                    entry.slug, entry.name, entry.summary, entry.category, entry.price, entry.icon, entry.isFeatured,
                    entry.isActive, Int64(index + 1), entry.image?.fileName, entry.image?.key, entry.image?.width, entry.image?.height
                )
            }
            // Carts and past orders point at these: they stay, out of sale, after the listed ones.
            for (offset, slug) in others.enumerated() {
                try connection.execute("UPDATE products SET active = false, position = $1 WHERE slug = $2", Int64(entries.count + offset + 1), slug)
            }
            try connection.execute(
                """
                INSERT INTO settings (key, value) VALUES ('catalog-version', '1')
                ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text
                """
            )
            try connection.execute(
                "INSERT INTO settings (key, value) VALUES ('catalog-origin', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                origin.rawValue
            )
            return try Self.load(from: connection)
        }
    }

    private static func version(in connection: PostgresConnection) throws -> Int64 {
        let text = try connection.fetchValue("SELECT value FROM settings WHERE key = 'catalog-version'", as: String.self)
        return text.flatMap { Int64($0) } ?? 0
    }

    private static func load(from connection: PostgresConnection) throws -> StoredCatalog {
        let products = try connection.fetchAll(
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
        let origin = try connection.fetchValue("SELECT value FROM settings WHERE key = 'catalog-origin'", as: String.self)
        return StoredCatalog(products: products, version: try version(in: connection), origin: origin.flatMap(CatalogOrigin.init(rawValue:)))
    }
}
