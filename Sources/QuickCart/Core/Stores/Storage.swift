import Postgres

/// Where the composition root picks the storage backend; nothing else in the app names one.
public enum Storage {
    /// Opens the storage `configuration` names: PostgreSQL for a `postgres://` or
    /// `postgresql://` URL, which any number of instances may share; otherwise a SQLite file
    /// path.
    /// - Parameter connections: The most database connections to hold open: the server's
    ///   threads and a few more. (PostgreSQL takes one more, for its badge listener.)
    /// - Throws: ``StorageError/unavailable(reason:)`` when the database cannot be reached;
    ///   otherwise when it cannot be opened or migrated. No message holds a password.
    public static func open(_ configuration: Configuration, connections: Int) throws -> any ShopStorage {
        let location = configuration.databasePath
        let emptyCarts = configuration.emptyCarts
        let makeStarterCart: (Catalog) -> Cart = { catalog in emptyCarts ? Cart() : Cart.demo(from: catalog) }
        if PostgresConnectionString.isURL(location) {
            if configuration.maximumDatabaseBytes != nil {
                Log.info("--db-max-mb is a quota on a SQLite file; on PostgreSQL its own limits apply")
            }
            return try PostgresStorage(connectionString: location, maximumConnections: connections, makeStarterCart: makeStarterCart)
        }
        return try SQLiteStorage(
            path: location, maximumConnections: connections, maximumBytes: configuration.maximumDatabaseBytes,
            makeStarterCart: makeStarterCart
        )
    }

    /// How `location` (a `--db` value) may be shown in a log: a URL's password is replaced
    /// by `***`.
    ///
    /// ```swift
    /// Storage.loggable("postgres://shop:s3cret@db/quickcart")  // "postgres://shop:***@db/quickcart"
    /// ```
    public static func loggable(_ location: String) -> String {
        PostgresConnectionString.isURL(location) ? PostgresConnectionString.redactingPassword(location) : location
    }
}
