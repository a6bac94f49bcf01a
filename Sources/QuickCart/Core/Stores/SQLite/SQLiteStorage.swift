import Glibc
import SQLite
import Synchronization

/// QuickCart's storage in one SQLite file: WAL, a pool of connections (one per server thread
/// in practice), the schema migrated on open. Every store's SQL lives in this folder.
final class SQLiteStorage: ShopStorage {
    let catalog: CatalogSource
    let catalogs: any CatalogStore
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
    private let database: SQLiteDatabase
    /// Held while storage is open, so `quickcart restore` knows the file is in use.
    private let useLock: Mutex<SQLiteUseLock?>
    /// Started by ``badgePublisher(deliveringTo:)``, stopped by ``close()``.
    private let moveWatchers = Mutex<[OrderMoveWatcher]>([])

    /// Opens (creating, unless `creatingFile` is false, and migrating if needed) the file at `path`.
    /// - Parameters:
    ///   - maximumConnections: The most connections open at once: the server's threads and a few more.
    ///   - maximumBytes: A size quota; past it, changes fail as ``StorageError/unavailable(reason:)``.
    ///   - makeStarterCart: Builds the cart new sessions start with, from the catalog and its origin.
    init(
        path: String, maximumConnections: Int, maximumBytes: Int64?, creatingFile: Bool = true,
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
        useLock = Mutex(path == ":memory:" || path.hasPrefix("file:") ? nil : try SQLiteUseLock(databasePath: path, exclusive: false))
        let pool = try SQLiteDatabase.mapping { try DatabasePool(path: path, maximumConnections: maximumConnections, configuration: configuration) }
        try SQLiteDatabase.mapping {
            try SQLiteSchema.migrator.migrate(pool)
            // Empties the WAL into the file and truncates it, so no page a migration rewrote
            // (such as one that held a session's raw id) lingers there.
            try pool.withConnection { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        // The source starts empty and is filled by the store it serves, before anyone reads it.
        let source = CatalogSource(StoredCatalog(products: [], version: -1, origin: nil), makeStarterCart: makeStarterCart)
        database = SQLiteDatabase(pool: pool, catalog: source)
        let catalogs = SQLiteCatalogStore(database: database)
        source.replace(with: try catalogs.loadCatalog())
        catalog = source
        self.catalogs = catalogs
        sessions = SQLiteSessionStore(database: database)
        carts = SQLiteCartStore(database: database)
        orders = SQLiteOrderStore(database: database)
        orderFeed = SQLiteOrderFeed(database: database)
        orderLife = SQLiteOrderLifeStore(database: database)
        searches = SQLiteSearchHistoryStore(database: database)
        joinCodes = SQLiteJoinCodeStore(database: database)
        productSearch = SQLiteProductSearchStore(database: database)
        deliveryMethods = SQLiteDeliveryMethodStore(database: database)
        deliveryDetails = SQLiteDeliveryDetailsStore(database: database)
    }

    func sessionSecret() throws -> [UInt8] {
        let hex = try database.read { db in
            try db.fetchValue("SELECT value FROM settings WHERE key = 'session-secret'", as: String.self)
        }
        guard let hex, let secret = Hex.decode(hex), secret.count >= 32 else {
            throw SQLiteStoreError.missingSecret
        }
        return secret
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
        _ = try database.read { db in try db.fetchValue("SELECT 1", as: Int.self) }
    }

    func statistics() -> StorageStatistics {
        StorageStatistics(connectionWaits: database.pool.connectionWaitCount, writerWaits: database.pool.writerWaitCount, listener: nil)
    }

    func close() {
        moveWatchers.withLock { watchers in
            for watcher in watchers { watcher.stop() }
            watchers = []
        }
        database.pool.close()
        useLock.withLock { $0 = nil }
    }
}

/// What the SQLite stores share: the pool, the live catalog (carts are read as product ids;
/// it gives the starter cart), and the one place SQLite's passing failures become ``StorageError``.
struct SQLiteDatabase: Sendable {
    let pool: DatabasePool
    let catalog: CatalogSource

    /// A borrowed connection, outside any transaction: one statement is its own snapshot.
    func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.mapping { try pool.withConnection(body) }
    }

    /// A read transaction: one snapshot for several statements.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.mapping { try pool.read(body) }
    }

    /// A write transaction that first stores `session`'s shopper and client if they are not
    /// stored yet, so they and the first change land together or not at all.
    func write<T>(storing session: Session, at now: Int64, _ body: (Database) throws -> T) throws -> T {
        try write { db in
            try store(session, in: db, at: now)
            return try body(db)
        }
    }

    /// A write transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.mapping { try pool.write(body) }
    }

    /// Stores `session`'s shopper with the starter cart (unless it starts empty), and its client,
    /// unless stored already.
    private func store(_ session: Session, in db: Database, at now: Int64) throws {
        // A session read from the database moments ago is there: no insert to attempt.
        guard !session.isStored else { return }
        try db.execute(
            "INSERT OR IGNORE INTO shoppers (id, created_at, last_seen, display_name, live_key) VALUES (?, ?, ?, ?, ?)",
            [session.shopperID, session.createdAt, now, session.displayName, session.shopperLiveKey]
        )
        if db.changes == 1, !session.startsEmpty {
            for (offset, item) in catalog.current.starterCart.items.enumerated() {
                try db.execute(
                    "INSERT INTO cart_items (shopper_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)",
                    [session.shopperID, item.product.id, item.quantity, now * 1000 + Int64(offset)]
                )
            }
        }
        try db.execute(
            "INSERT OR IGNORE INTO clients (id, shopper_id, created_at, last_seen, device) VALUES (?, ?, ?, ?, ?)",
            [session.clientID, session.shopperID, now, now, session.device]
        )
    }

    /// Runs `body`, turning SQLite's failures that pass with their cause (space, permissions,
    /// locks, I/O) into ``StorageError/unavailable(reason:)``. The transaction they hit has
    /// rolled back by then, so nothing changed.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where passingCodes.contains(error.code) {
            throw StorageError.unavailable(reason: error.description)
        }
    }

    private static let passingCodes: [SQLiteError.Code] = [.full, .readOnly, .busy, .locked, .ioError, .cantOpen, .permission]
}

/// Failures of the SQLite stores that are not SQLite's own.
enum SQLiteStoreError: Error, CustomStringConvertible {
    case missingSecret
    /// Opened as an existing database, and there is no file at the path.
    case noDatabase(path: String)

    var description: String {
        switch self {
        case .missingSecret: "the session secret is missing from the settings table"
        case .noDatabase(let path):
            "there is no database at \(path): serving the shop (quickcart --db \(path)) creates it, or name an existing one with --db"
        }
    }

    /// `path` from the root, for messages: a relative one is read from the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }
}
