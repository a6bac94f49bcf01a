import Postgres
import Synchronization

/// QuickCart's storage in one PostgreSQL database that any number of instances share: a pool
/// of connections per instance, the schema migrated on open (once across instances), and a
/// listener that carries the live badge between them. Every store's SQL lives in this folder.
final class PostgresStorage: ShopStorage {
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
    private let database: PostgresDatabase
    /// Private, so it cannot be printed by accident: it may hold a password.
    private let connectionString: String
    /// The badge relays started by ``badgePublisher(deliveringTo:)``, stopped by ``close()``.
    private let relays = Mutex<[PostgresBadgeRelay]>([])

    /// Connects to the database `connectionString` names, migrates it and reads the catalog.
    /// - Parameters:
    ///   - maximumConnections: The most connections this instance opens at once (its listener
    ///     takes one more): the server's threads and a few more.
    ///   - makeStarterCart: Builds the cart new sessions start with, from the catalog and its origin.
    /// - Throws: ``StorageError/unavailable(reason:)`` when the database cannot be reached;
    ///   ``PostgresError`` when the URL is malformed or the schema is not this build's.
    init(connectionString: String, maximumConnections: Int, makeStarterCart: @escaping @Sendable (Catalog, CatalogOrigin?) -> Cart) throws {
        let pool = try PostgresDatabase.mapping {
            try PostgresPool(
                connectionString: connectionString, maximumConnections: maximumConnections,
                configuration: PostgresConnection.Configuration(connectTimeout: .seconds(2))
            )
        }
        // The source starts empty and is filled by the store it serves, before anyone reads it.
        let source = CatalogSource(StoredCatalog(products: [], version: -1, origin: nil), makeStarterCart: makeStarterCart)
        let database = PostgresDatabase(pool: pool, catalog: source)
        let catalogs = PostgresCatalogStore(database: database)
        do {
            try PostgresDatabase.mapping {
                try PostgresSchema.migrator.migrate(pool)
                try Self.makeSessionSecretIfMissing(in: pool)
            }
            source.replace(with: try catalogs.loadCatalog())
        } catch {
            pool.close()
            throw error
        }
        self.connectionString = connectionString
        self.database = database
        catalog = source
        self.catalogs = catalogs
        sessions = PostgresSessionStore(database: database)
        carts = PostgresCartStore(database: database)
        orders = PostgresOrderStore(database: database)
        orderFeed = PostgresOrderFeed(database: database)
        orderLife = PostgresOrderLifeStore(database: database)
        searches = PostgresSearchHistoryStore(database: database)
        joinCodes = PostgresJoinCodeStore(database: database)
        productSearch = PostgresProductSearchStore(database: database)
        deliveryMethods = PostgresDeliveryMethodStore(database: database)
        deliveryDetails = PostgresDeliveryDetailsStore(database: database)
    }

    func sessionSecret() throws -> [UInt8] {
        let hex = try database.withConnection { connection in
            try connection.fetchValue("SELECT value FROM settings WHERE key = 'session-secret'", as: String.self)
        }
        guard let hex, let secret = Hex.decode(hex), secret.count >= 32 else {
            throw PostgresStoreError.missingSecret
        }
        return secret
    }

    /// Starts this instance's listener, which feeds `hub` with the changes every instance
    /// commits; the cart store sends them (`NOTIFY`) inside the committing transaction.
    func badgePublisher(deliveringTo hub: BadgeHub) -> any BadgePublisher {
        let relay = PostgresBadgeRelay(connectionString: connectionString, hub: hub, database: database)
        relays.withLock { $0.append(relay) }
        relay.start()
        return relay
    }

    func ping() throws {
        try PostgresDatabase.mapping { try database.pool.ping() }
    }

    func statistics() -> StorageStatistics {
        let relay = relays.withLock { $0.first }
        return StorageStatistics(
            connectionWaits: database.pool.connectionWaitCount, writerWaits: nil, listener: relay?.statistics(probingThrough: database)
        )
    }

    func close() {
        let relays = self.relays.withLock { relays in
            defer { relays.removeAll() }
            return relays
        }
        for relay in relays { relay.stop() }
        database.pool.close()
    }

    /// Every instance offers a secret; the first to arrive keeps it, and all read that one.
    private static func makeSessionSecretIfMissing(in pool: PostgresPool) throws {
        let secret = SecureRandom.bytes(count: 32)
        try pool.withConnection { connection in
            try connection.execute(
                "INSERT INTO settings (key, value) VALUES ('session-secret', $1) ON CONFLICT (key) DO NOTHING", Hex.encode(secret)
            )
        }
    }
}

/// What the PostgreSQL stores share: the pool, the live catalog (carts are read as product
/// ids; it gives the starter cart), and the one place PostgreSQL's passing failures become
/// ``StorageError``.
struct PostgresDatabase: Sendable {
    let pool: PostgresPool
    let catalog: CatalogSource

    /// How often a transaction that lost a race (serialization failure, deadlock) runs at most.
    static let maximumAttempts = 5

    /// A borrowed connection, outside any transaction: one statement is its own snapshot.
    @discardableResult
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try Self.mapping { try pool.withConnection(body) }
    }

    /// A transaction that first stores `session`'s shopper and client if they are not stored
    /// yet, so they and the first change land together or not at all.
    @discardableResult
    func write<T>(storing session: Session, at now: Int64, _ body: (PostgresConnection) throws -> T) throws -> T {
        try write { connection in
            try store(session, in: connection, at: now)
            return try body(connection)
        }
    }

    /// A read-committed transaction, rerun a few times if it loses a race.
    @discardableResult
    func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try Self.mapping { try pool.transaction(maximumAttempts: Self.maximumAttempts, body) }
    }

    /// Stores `session`'s shopper with the starter cart (unless it starts empty), and its
    /// client, unless stored already, in one statement. Another transaction storing the same ones meanwhile makes
    /// this one wait for it and then insert nothing.
    private func store(_ session: Session, in connection: PostgresConnection, at now: Int64) throws {
        // A session read from the database moments ago is there: no insert to attempt.
        guard !session.isStored else { return }
        // The starter cart as two array literals.
        let starterCart = session.startsEmpty ? Cart() : catalog.current.starterCart
        let starterProductIDs = "{" + starterCart.items.map { String($0.product.id) }.joined(separator: ",") + "}"
        let starterQuantities = "{" + starterCart.items.map { String($0.quantity) }.joined(separator: ",") + "}"
        // The client's reference is checked at the end of the statement, when the shopper is in.
        try connection.execute(
            """
            WITH stored AS (
                INSERT INTO shoppers (id, created_at, last_seen, display_name, live_key)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (id) DO NOTHING RETURNING id
            ), client AS (
                INSERT INTO clients (id, shopper_id, created_at, last_seen, device)
                VALUES ($8, $1, $3, $3, $9)
                ON CONFLICT (id) DO NOTHING
            )
            INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
            SELECT stored.id, item.product_id, item.quantity, $3::bigint * 1000 + item.position - 1
            FROM stored, unnest($6::bigint[], $7::integer[]) WITH ORDINALITY AS item (product_id, quantity, position)
            """,
            session.shopperID, session.createdAt, now, session.displayName, session.shopperLiveKey, starterProductIDs, starterQuantities,
            session.clientID, session.device
        )
    }

    /// Runs `body`, turning PostgreSQL's passing failures (unreachable, restarting, out of
    /// connections or space, a race lost too often) into ``StorageError/unavailable(reason:)``.
    /// The transaction they hit has rolled back by then, so nothing changed.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.isUnavailable || error.isTransactionRetryable || passingCodes.contains(where: error.has) {
            throw StorageError.unavailable(reason: error.description)
        }
    }

    /// Disk full, out of memory, a read-only server (a standby, or read-only by setting), a
    /// statement or lock timeout.
    private static let passingCodes: [PostgresError.Code] = [.diskFull, .outOfMemory, .readOnlySQLTransaction, .queryCanceled, .lockNotAvailable]
}

/// Failures of the PostgreSQL stores that are not PostgreSQL's own.
enum PostgresStoreError: Error, CustomStringConvertible {
    case missingSecret

    var description: String {
        switch self {
        case .missingSecret: "the session secret is missing from the settings table"
        }
    }
}
