import Postgres

/// Where the composition root picks the storage backend; nothing else in the app names one.
public enum Storage {
    /// Opens the storage `configuration` names: PostgreSQL for a `postgres://` or
    /// `postgresql://` URL or a keyword/value connection string, which any number of instances
    /// may share; otherwise a SQLite file path. A database that never had a catalog imported gets the demo catalog
    /// (`Catalog/demo.csv`).
    /// - Parameters:
    ///   - connections: The most database connections to hold open: the server's threads and a
    ///     few more. (PostgreSQL takes one more, for its badge listener.)
    ///   - creatingDatabase: Whether a missing SQLite file is created (serving) or is an error
    ///     naming its path (the operator's commands, which work on an existing shop).
    ///   - serving: Whether this process serves the shop: a SQLite file is served by one process
    ///     at a time, by whatever name it is given, so a second server is refused.
    /// - Throws: ``StorageError/unavailable(reason:)`` when the database cannot be reached;
    ///   otherwise when it cannot be opened or migrated. No message holds a password.
    public static func open(
        _ configuration: Configuration, connections: Int, creatingDatabase: Bool = true, serving: Bool = false
    ) throws -> any ShopStorage {
        let location = configuration.databasePath
        let emptyCarts = configuration.emptyCarts
        // The demo cart belongs to the demo catalog: once the operator imports their own,
        // new sessions start empty.
        let makeStarterCart: @Sendable (Catalog, CatalogOrigin?) -> Cart = { catalog, origin in
            emptyCarts || origin == .own ? Cart() : Cart.demo(from: catalog)
        }
        let storage: any ShopStorage
        if isPostgreSQL(location) {
            if configuration.maximumDatabaseBytes != nil {
                Log.info("--db-max-mb is a quota on a SQLite file; on PostgreSQL its own limits apply")
            }
            storage = try PostgresStorage(connectionString: location, maximumConnections: connections, makeStarterCart: makeStarterCart)
        } else {
            storage = try SQLiteStorage(
                path: location, maximumConnections: connections, maximumBytes: configuration.maximumDatabaseBytes,
                creatingFile: creatingDatabase, serving: serving, makeStarterCart: makeStarterCart
            )
        }
        do {
            try loadDemoCatalogIfNeverImported(into: storage, resourcesPath: configuration.resourcesPath)
        } catch {
            storage.close()
            throw error
        }
        return storage
    }

    /// A database no catalog was ever imported into (a new one, or one made before imports
    /// existed, which holds the same demo rows) gets `Catalog/demo.csv` through the import.
    /// A database that already holds products (made before imports existed) keeps serving them
    /// when this fails (say, the file is missing or the disk is full); an empty one cannot.
    private static func loadDemoCatalogIfNeverImported(into storage: any ShopStorage, resourcesPath: String?) throws {
        let current = storage.liveCatalog.current
        guard current.origin == nil else { return }
        do {
            let entries = try DemoCatalog.entries(resourcesPath: resourcesPath)
            storage.liveCatalog.replace(with: try storage.catalogStore.importCatalogIfNeverImported(entries, origin: .demo))
        } catch where !current.catalog.allProducts.isEmpty {
            Log.error("loading the demo catalog failed, serving the products stored: \(error)")
        }
    }

    /// Copies the SQLite database at `databasePath` to `file` while the shop runs (see
    /// `SQLiteBackup`), replacing an existing `file` only when `replacing` (and never the
    /// database's own files); returns the copy's size in bytes.
    static func backUp(databasePath: String, to file: String, replacing: Bool) throws -> Int64 {
        try SQLiteBackup.backUp(databasePath: databasePath, to: file, replacing: replacing)
    }

    /// Replaces the SQLite database at `databasePath` with the backup `file`, unless it is in use.
    static func restore(from file: String, to databasePath: String) throws -> RestoreReport {
        try SQLiteBackup.restore(from: file, to: databasePath)
    }

    /// How `location` (a `--db` value) may be shown in a log: a connection string's password
    /// is replaced by `***`.
    ///
    /// ```swift
    /// Storage.loggable("postgres://shop:s3cret@db/quickcart")  // "postgres://shop:***@db/quickcart"
    /// ```
    public static func loggable(_ location: String) -> String {
        isPostgreSQL(location) ? PostgresConnectionString.redactingPassword(location) : location
    }

    /// Whether `location` (a `--db` value) names a PostgreSQL database: a `postgres://` or
    /// `postgresql://` URL, the scheme in any case, or a libpq keyword/value string
    /// (`host=db dbname=shop`, see ``PostgresConnectionString/isKeywordValue(_:)``). Anything
    /// else is a SQLite file path.
    public static func isPostgreSQL(_ location: String) -> Bool {
        PostgresConnectionString.isURL(location) || PostgresConnectionString.isKeywordValue(location)
    }
}

/// What a restore found, for the operator's line.
struct RestoreReport: Equatable {
    /// There was no database there before: the restore made a new file.
    let madeNewFile: Bool
    /// The highest order number of the database the restore replaced, if it had orders.
    let newestOrderReplaced: Int64?
    /// The highest order number of the backup, if it has orders.
    let newestOrderRestored: Int64?

    /// Order numbers the database replaced had given out and the backup has not, which new
    /// orders will be given again (`nil` when there are none).
    var numbersGivenAgain: ClosedRange<Int64>? {
        guard let replaced = newestOrderReplaced, replaced > (newestOrderRestored ?? 0) else { return nil }
        return (newestOrderRestored ?? 0) + 1...replaced
    }
}
