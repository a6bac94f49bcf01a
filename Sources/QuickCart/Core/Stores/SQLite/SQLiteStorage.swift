import Glibc
import SQLite
import Synchronization

/// QuickCart's storage in one SQLite file: WAL, a pool of connections (one per server thread
/// in practice), the schema migrated on open. Every store's SQL lives in this folder.
final class SQLiteStorage: ShopStorage {
    let liveCatalog: LiveCatalog
    let catalogStore: any CatalogStore
    let sessions: any SessionStore
    let carts: any CartStore
    let orders: any OrderStore
    let orderFeed: any OrderFeed
    let orderLife: any OrderLifeStore
    let searches: any SearchHistoryStore
    let joinCodes: any JoinCodeStore
    let productSearch: any ProductSearchStore
    let deliveryMethods: any DeliveryMethodStore
    let deliveryDetails: any DeliveryDetailsStore
    private let pool: SQLiteStoragePool
    /// Held while storage is open, so `quickcart restore` knows the file is in use.
    private let useLock: Mutex<SQLiteUseLock?>
    /// Started by ``badgePublisher(deliveringTo:)``, stopped by ``close()``.
    private let moveWatchers = Mutex<[OrderMoveWatcher]>([])

    /// Opens (creating, unless `creatingFile` is false, and migrating if needed) the file at `path`.
    /// - Parameters:
    ///   - maximumConnections: The most connections open at once: the server's threads and a few more.
    ///   - maximumBytes: A size quota; past it, changes fail as ``StorageError/unavailable(reason:)``.
    ///   - serving: Whether this process serves the shop from the file, which no other server may
    ///     then do (see ``SQLiteUseLock``).
    ///   - makeStarterCart: Builds the cart new sessions start with, from the catalog and its origin.
    init(
        path: String, maximumConnections: Int, maximumBytes: Int64?, creatingFile: Bool = true, serving: Bool = false,
        makeStarterCart: @escaping @Sendable (Catalog, CatalogOrigin?) -> Cart
    ) throws {
        if !creatingFile, access(path, F_OK) != 0 { throw SQLiteStoreError.noDatabase(path: SQLiteStoreError.absolute(path)) }
        // The file holds the cookie-signing secret: no other local user may read it.
        var configuration = Database.Configuration(fileMode: 0o600)
        configuration.createsFile = creatingFile
        if let maximumBytes {
            configuration.prepareConnection = { db in
                let pageSize = try db.fetchValue("PRAGMA page_size", as: Int64.self) ?? 4096
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, maximumBytes / pageSize))")
            }
        }
        // Before the file is touched: a restore under way must finish first.
        useLock = Mutex(path == ":memory:" || path.hasPrefix("file:") ? nil : try SQLiteUseLock(databasePath: path, for: serving ? .serving : .sharing))
        let connections = try Self.opening(path) {
            let connections = try DatabasePool(path: path, maximumConnections: maximumConnections, configuration: configuration)
            // Refused at once: SQLite opens a file it may not write for reading, and the shop
            // would then serve pages and answer every change with 503.
            if try connections.withConnection({ db in db.isReadOnly }) {
                throw SQLiteStoreError.readOnly(path: SQLiteStoreError.absolute(path))
            }
            try SQLiteSchema.migrator.migrate(connections)
            // Empties the WAL into the file and truncates it, so no page a migration rewrote
            // (such as one that held a session's raw id) lingers there.
            try connections.withConnection { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            return connections
        }
        // The live catalog starts empty and is filled by the store it serves, before anyone reads it.
        let source = LiveCatalog(StoredCatalog(products: [], version: -1, origin: nil), makeStarterCart: makeStarterCart)
        pool = SQLiteStoragePool(connections: connections, liveCatalog: source)
        let catalogStore = SQLiteCatalogStore(pool: pool)
        source.replace(with: try catalogStore.loadCatalog())
        liveCatalog = source
        self.catalogStore = catalogStore
        sessions = SQLiteSessionStore(pool: pool)
        carts = SQLiteCartStore(pool: pool)
        orders = SQLiteOrderStore(pool: pool)
        orderFeed = SQLiteOrderFeed(pool: pool)
        orderLife = SQLiteOrderLifeStore(pool: pool)
        searches = SQLiteSearchHistoryStore(pool: pool)
        joinCodes = SQLiteJoinCodeStore(pool: pool)
        productSearch = SQLiteProductSearchStore(pool: pool)
        deliveryMethods = SQLiteDeliveryMethodStore(pool: pool)
        deliveryDetails = SQLiteDeliveryDetailsStore(pool: pool)
    }

    /// Runs `body`, which opens the database at `path`, saying what keeps the file from being
    /// served in one line that names it: not a database or damaged, not writable by this
    /// user, or from a newer QuickCart. SQLite's passing failures become
    /// ``StorageError/unavailable(reason:)`` as everywhere.
    private static func opening<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try SQLiteStoragePool.mapping {
            do {
                return try body()
            } catch let error as SQLiteError where error.code == .notADatabase || error.code == .corrupt {
                throw SQLiteStoreError.damaged(path: SQLiteStoreError.absolute(path), reason: error.message)
            } catch let error as SQLiteError where error.code == .readOnly {
                throw SQLiteStoreError.readOnly(path: SQLiteStoreError.absolute(path))
            } catch let error as DatabaseMigrator.NewerSchemaError {
                throw SQLiteStoreError.newerSchema(path: SQLiteStoreError.absolute(path), version: error.version, knownVersion: error.knownVersion)
            }
        }
    }

    func sessionSecret() throws -> [UInt8] {
        try SessionSecret.decode(pool.read { db in
            try db.fetchValue("SELECT value FROM settings WHERE key = ?", [SessionSecret.settingKey], as: String.self)
        })
    }

    /// One file serves one process, so this process's hub is the whole way for the badge.
    /// Orders' moves come from the operator's process, so they are watched for (see
    /// ``OrderMoveWatcher``) for as long as storage stays open.
    func badgePublisher(deliveringTo hub: BadgeHub) -> any BadgePublisher {
        let watcher = OrderMoveWatcher(feed: orderFeed, hub: hub)
        watcher.start()
        moveWatchers.withLock { $0.append(watcher) }
        return hub
    }

    func ping() throws {
        _ = try pool.read { db in try db.fetchValue("SELECT 1", as: Int.self) }
    }

    /// A file on this machine: whatever keeps it from answering shows in the request that reads it.
    func confirmReachable() throws {}

    func statistics() -> StorageStatistics {
        StorageStatistics(connectionWaits: pool.connections.connectionWaitCount, writerWaits: pool.connections.writerWaitCount, listener: nil)
    }

    func close() {
        moveWatchers.withLock { watchers in
            for watcher in watchers { watcher.stop() }
            watchers = []
        }
        pool.connections.close()
        useLock.withLock { $0 = nil }
    }
}
