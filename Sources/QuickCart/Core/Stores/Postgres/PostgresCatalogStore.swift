import Postgres

/// The catalog in PostgreSQL: the `products` table, with the catalog's version and origin in
/// `settings` (`catalog-version`, `catalog-origin`), as in SQLite. Every instance of a cluster
/// polls the version, so an import through any of them reaches all.
struct PostgresCatalogStore: CatalogStore {
    /// The advisory lock an import holds, so two imports run one after the other: "QCIMPORT".
    static let importLockKey: Int64 = 0x5143_494D_504F_5254

    let pool: PostgresStoragePool

    func catalogVersion() throws -> Int64 {
        try pool.withConnection { connection in try Self.version(in: connection) }
    }

    func loadCatalog() throws -> StoredCatalog {
        // One snapshot for the version and the products.
        try PostgresStoragePool.mapping {
            try pool.connections.transaction(.repeatableRead, maximumAttempts: PostgresStoragePool.maximumAttempts) { connection in
                try Self.load(from: connection)
            }
        }
    }

    @discardableResult
    func importCatalog(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog {
        try pool.write { connection in
            try Self.lockImports(on: connection)
            return try Self.write(entries, origin: origin, on: connection)
        }
    }

    func importCatalogIfNeverImported(_ entries: [CatalogEntry], origin: CatalogOrigin) throws -> StoredCatalog {
        try pool.write { connection in
            // Under the lock, so an import that ran meanwhile (another instance's, the operator's) is seen.
            try Self.lockImports(on: connection)
            let stored = try Self.load(from: connection)
            return stored.origin == nil ? try Self.write(entries, origin: origin, on: connection) : stored
        }
    }

    private static func lockImports(on connection: PostgresConnection) throws {
        _ = try connection.fetchValue("SELECT pg_advisory_xact_lock($1)::text", importLockKey, as: String.self)
    }

    private static func write(_ entries: [CatalogEntry], origin: CatalogOrigin, on connection: PostgresConnection) throws -> StoredCatalog {
        let plan = CatalogImportPlan(
            entries: entries, stored: try connection.fetchAll("SELECT slug FROM products ORDER BY position, id") { try $0.string(0) }
        )
        for listed in plan.listed {
            let entry = listed.entry, image = entry.image
            try connection.execute(query: """
                INSERT INTO products (slug, name, summary, category, price_cents, icon, featured, active, position,
                                      image_file, image_key, image_width, image_height)
                VALUES (\(entry.slug), \(entry.name), \(entry.summary), \(entry.category), \(entry.price), \(entry.icon),
                        \(entry.isFeatured), \(entry.isActive), \(listed.position),
                        \(image?.fileName), \(image?.key), \(image?.width), \(image?.height))
                ON CONFLICT (slug) DO UPDATE SET
                    name = excluded.name, summary = excluded.summary, category = excluded.category,
                    price_cents = excluded.price_cents, icon = excluded.icon, featured = excluded.featured,
                    active = excluded.active, position = excluded.position, image_file = excluded.image_file,
                    image_key = excluded.image_key, image_width = excluded.image_width, image_height = excluded.image_height
                """)
        }
        for unlisted in plan.unlisted {
            try connection.execute("UPDATE products SET active = false, position = $1 WHERE slug = $2", unlisted.position, unlisted.slug)
        }
        try connection.execute(
            """
            INSERT INTO settings (key, value) VALUES ($1, '1')
            ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text
            """,
            CatalogImportPlan.versionKey
        )
        try connection.execute(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            CatalogImportPlan.originKey, origin.rawValue
        )
        return try Self.load(from: connection)
    }

    private static func version(in connection: PostgresConnection) throws -> Int64 {
        CatalogImportPlan.version(
            try connection.fetchValue("SELECT value FROM settings WHERE key = $1", CatalogImportPlan.versionKey, as: String.self)
        )
    }

    private static func load(from connection: PostgresConnection) throws -> StoredCatalog {
        let products = try connection.fetchAll("SELECT \(CatalogImportPlan.productColumns) FROM products ORDER BY position, id") { row in
            try CatalogImportPlan.product(from: row)
        }
        let origin = try connection.fetchValue("SELECT value FROM settings WHERE key = $1", CatalogImportPlan.originKey, as: String.self)
        return StoredCatalog(products: products, version: try version(in: connection), origin: origin.flatMap(CatalogOrigin.init(rawValue:)))
    }
}
