/// Where the composition root picks the storage backend; nothing else in the app names one.
public enum Storage {
    /// Opens the storage `configuration` names: a SQLite file path. A database that never had
    /// a catalog imported gets the demo catalog (`Catalog/demo.csv`). (`postgres://` and
    /// `postgresql://` URLs are recognised and refused until PostgreSQL support is built in.)
    /// - Parameter connections: The most database connections to hold open: the server's
    ///   threads and a few more.
    /// - Throws: ``Configuration/UsageError`` for a URL of a backend this build lacks; otherwise
    ///   when the database cannot be opened or migrated.
    public static func open(_ configuration: Configuration, connections: Int) throws -> any ShopStorage {
        let location = configuration.databasePath
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            throw Configuration.UsageError(
                description: "--db \(redactingPassword(location)): PostgreSQL support is not built in yet; give a SQLite file path"
            )
        }
        let emptyCarts = configuration.emptyCarts
        let storage = try SQLiteStorage(
            path: location, maximumConnections: connections, maximumBytes: configuration.maximumDatabaseBytes,
            // The demo cart belongs to the demo catalog: once the operator imports their own,
            // new sessions start empty.
            makeStarterCart: { catalog, origin in emptyCarts || origin == .own ? Cart() : Cart.demo(from: catalog) }
        )
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
        let current = storage.catalog.current
        guard current.origin == nil else { return }
        do {
            let entries = try DemoCatalog.entries(resourcesPath: resourcesPath)
            storage.catalog.replace(with: try storage.catalogs.importCatalog(entries, origin: .demo))
        } catch where !current.catalog.allProducts.isEmpty {
            Log.error("loading the demo catalog failed, serving the products stored: \(error)")
        }
    }

    /// The URL with any password replaced by `***`, fit for a log or a message.
    static func redactingPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
    }
}
