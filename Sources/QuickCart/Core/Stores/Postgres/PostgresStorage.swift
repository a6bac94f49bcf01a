import Postgres
import Synchronization

/// QuickCart's storage in one PostgreSQL database that any number of instances share: a pool
/// of connections per instance, the schema migrated on open (once across instances), and a
/// listener that carries the live badge between them. Every store's SQL lives in this folder.
final class PostgresStorage: ShopStorage {
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
    private let pool: PostgresStoragePool
    /// Private, so it cannot be printed by accident: it may hold a password.
    private let connectionString: String
    /// The badge relays started by ``badgePublisher(deliveringTo:)``, stopped by ``close()``.
    private let relays = Mutex<[PostgresBadgeRelay]>([])

    /// How long one statement may wait for PostgreSQL's answer before the request gets 503: a
    /// database host that hung would otherwise hold each worker thread until TCP gave up, for
    /// minutes. Long enough for the slowest statement a shop runs (an operator's export of
    /// every order, an import's batch); migrations wait as long as they take.
    static let responseTimeout: Duration = .seconds(10)

    /// Connects to the database `connectionString` names, migrates it and reads the catalog.
    /// - Parameters:
    ///   - maximumConnections: The most connections this instance opens at once (its listener
    ///     takes one more): the server's threads and a few more.
    ///   - makeStarterCart: Builds the cart new sessions start with, from the catalog and its origin.
    /// - Throws: ``StorageError/unavailable(reason:)`` when the database cannot be reached;
    ///   ``PostgresError`` when the URL is malformed or the schema is not this build's.
    init(connectionString: String, maximumConnections: Int, makeStarterCart: @escaping @Sendable (Catalog, CatalogOrigin?) -> Cart) throws {
        let connections = try PostgresStoragePool.mapping {
            try PostgresPool(
                connectionString: connectionString, maximumConnections: maximumConnections,
                configuration: PostgresConnection.Configuration(connectTimeout: .seconds(2), responseTimeout: Self.responseTimeout)
            )
        }
        // The live catalog starts empty and is filled by the store it serves, before anyone reads it.
        let source = LiveCatalog(StoredCatalog(products: [], version: -1, origin: nil), makeStarterCart: makeStarterCart)
        let pool = PostgresStoragePool(connections: connections, liveCatalog: source)
        let catalogStore = PostgresCatalogStore(pool: pool)
        do {
            try PostgresStoragePool.mapping {
                try PostgresSchema.migrator.migrate(connections)
                try Self.makeSessionSecretIfMissing(in: connections)
            }
            source.replace(with: try catalogStore.loadCatalog())
        } catch {
            connections.close()
            throw error
        }
        self.connectionString = connectionString
        self.pool = pool
        liveCatalog = source
        self.catalogStore = catalogStore
        sessions = PostgresSessionStore(pool: pool)
        carts = PostgresCartStore(pool: pool)
        orders = PostgresOrderStore(pool: pool)
        orderFeed = PostgresOrderFeed(pool: pool)
        orderLife = PostgresOrderLifeStore(pool: pool)
        searches = PostgresSearchHistoryStore(pool: pool)
        joinCodes = PostgresJoinCodeStore(pool: pool)
        productSearch = PostgresProductSearchStore(pool: pool)
        deliveryMethods = PostgresDeliveryMethodStore(pool: pool)
        deliveryDetails = PostgresDeliveryDetailsStore(pool: pool)
    }

    func sessionSecret() throws -> [UInt8] {
        try SessionSecret.decode(pool.withConnection { connection in
            try connection.fetchValue("SELECT value FROM settings WHERE key = $1", SessionSecret.settingKey, as: String.self)
        })
    }

    /// Starts this instance's listener, which feeds `hub` with the changes every instance
    /// commits; the cart store sends them (`NOTIFY`) inside the committing transaction.
    func badgePublisher(deliveringTo hub: BadgeHub) -> any BadgePublisher {
        let relay = PostgresBadgeRelay(connectionString: connectionString, hub: hub, pool: pool)
        relays.withLock { $0.append(relay) }
        relay.start()
        return relay
    }

    func ping() throws {
        try pool.reaching { try pool.connections.ping() }
    }

    func confirmReachable() throws {
        // A listener without its connection has most likely lost the database too.
        let listening = relays.withLock { $0.allSatisfy(\.isListening) }
        guard pool.outage.isSuspected || !listening else { return }
        try ping()
    }

    func statistics() -> StorageStatistics {
        let relay = relays.withLock { $0.first }
        return StorageStatistics(
            connectionWaits: pool.connections.connectionWaitCount, writerWaits: nil, listener: relay?.statistics(probingThrough: pool)
        )
    }

    func close() {
        let relays = self.relays.withLock { relays in
            defer { relays.removeAll() }
            return relays
        }
        for relay in relays { relay.stop() }
        pool.connections.close()
    }

    /// Every instance offers a secret; the first to arrive keeps it, and all read that one.
    private static func makeSessionSecretIfMissing(in connections: PostgresPool) throws {
        try connections.withConnection { connection in
            try connection.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", SessionSecret.settingKey, SessionSecret.make()
            )
        }
    }
}
