/// Everything QuickCart keeps, behind one value the app composes: the catalog, the stores of
/// sessions, carts, orders and searches, the cookie-signing secret and a health check.
///
/// The app never learns which backend it has; ``Storage/open(_:connections:)`` picks one.
///
/// ```swift
/// let storage = try Storage.open(configuration, connections: threads + 2)
/// let sessionManager = SessionManager(store: storage.sessions, secret: try storage.sessionSecret(), …)
/// let change = try storage.carts.add(productID: 3, for: session, at: now)
/// ```
///
/// Every method may throw ``StorageError/unavailable(reason:)``; when it does, nothing was
/// changed.
public protocol ShopStorage: Sendable {
    /// Everything the shop sells now, and the cart a session has until it first changes
    /// something (the one it is stored with). Loaded when storage opened; the app refreshes it
    /// from ``catalogStore`` when an import lands.
    var liveCatalog: LiveCatalog { get }
    /// The catalog as stored: load, version, import.
    var catalogStore: any CatalogStore { get }
    /// Sessions: lookup (with the cart), touch, display name, preferences, purge.
    var sessions: any SessionStore { get }
    /// Cart changes.
    var carts: any CartStore { get }
    /// Placed orders.
    var orders: any OrderStore { get }
    /// Every session's orders, for the operator's export.
    var orderFeed: any OrderFeed { get }
    /// Orders' moves from placed to delivered or cancelled, by the operator.
    var orderLife: any OrderLifeStore { get }
    /// Each session's recent searches.
    var searches: any SearchHistoryStore { get }
    /// Codes that bring another device into a shopper's cart.
    var joinCodes: any JoinCodeStore { get }
    /// Full-text search over the products.
    var productSearch: any ProductSearchStore { get }
    /// The shop's delivery methods.
    var deliveryMethods: any DeliveryMethodStore { get }
    /// Shoppers' saved delivery details.
    var deliveryDetails: any DeliveryDetailsStore { get }

    /// The secret that signs session cookies (at least 32 bytes). Made once, when storage is
    /// first created, and the same on every later start and for every instance sharing it.
    func sessionSecret() throws -> [UInt8]

    /// The publisher the cart controller sends committed changes through. It delivers to
    /// `hub`, this process's streams; a backend that several instances share also carries the
    /// news to theirs (and feeds `hub` with theirs) for as long as storage stays open.
    func badgePublisher(deliveringTo hub: BadgeHub) -> any BadgePublisher

    /// Checks that storage answers a query now.
    /// - Throws: ``StorageError/unavailable(reason:)`` when it does not.
    func ping() throws

    /// For a request that reads nothing stored (a new visitor's page, a new app client): checks
    /// that storage answers, but asks it only when it was last seen out of reach, so that such a
    /// request answers 503 during an outage, as every other does, at no cost otherwise.
    /// - Throws: ``StorageError/unavailable(reason:)`` when it is out of reach.
    func confirmReachable() throws

    /// Pool waits and, where there is one, the listener's state, for the operator's metrics.
    /// May take up to a second (a backend may time a notification round trip).
    func statistics() -> StorageStatistics

    /// Closes every connection. Calls made afterwards fail.
    func close()
}
