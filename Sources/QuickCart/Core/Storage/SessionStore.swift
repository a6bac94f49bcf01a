/// A stored client with its shopper and the shopper's cart, read together, so resolving a
/// request's session and showing its cart (or badge) costs one read.
public struct StoredSession: Sendable, Equatable {
    /// The shopper the client belongs to.
    public var shopperID: String
    /// The shopper's live key (``Session/shopperLiveKey``).
    public var shopperLiveKey: String
    /// When the shopper began (seconds since 1970, UTC).
    public var createdAt: Int64
    /// When the client was last touched (seconds since 1970, UTC).
    public var lastSeen: Int64
    /// The name shown on Profile (``Session/defaultDisplayName`` until the shopper picks one).
    public var displayName: String
    /// Theme, tab order, layout and notification settings.
    public var preferences: Preferences
    /// The shopper's cart, in the order items were added.
    public var cart: Cart
    /// The cart's version: it grows with every change (``CartChange/version``).
    public var cartVersion: Int64
    /// The newest of the shopper's recent searches (``SearchHistoryStore``), if any.
    public var newestSearch: String?

    public init(
        shopperID: String, shopperLiveKey: String, createdAt: Int64, lastSeen: Int64, displayName: String,
        preferences: Preferences, cart: Cart, cartVersion: Int64, newestSearch: String? = nil
    ) {
        self.shopperID = shopperID
        self.shopperLiveKey = shopperLiveKey
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.displayName = displayName
        self.preferences = preferences
        self.cart = cart
        self.cartVersion = cartVersion
        self.newestSearch = newestSearch
    }
}

/// What storage knows of a client id.
public enum StoredClient: Sendable, Equatable {
    /// A client in use, with its shopper.
    case active(StoredSession)
    /// A client that was signed out: its id is spent for good, and no cookie of it (before or
    /// after rotation) may lead anywhere again.
    case spent
}

/// One of a shopper's clients, as Profile's devices list shows it.
public struct StoredDevice: Sendable, Equatable {
    /// The client's ``Session/clientID``.
    public var clientID: String
    /// Browser and system, coarsely ("Chromium on Linux").
    public var device: String
    /// When the client was first stored, and last touched (seconds since 1970, UTC).
    public var createdAt: Int64
    public var lastSeen: Int64

    public init(clientID: String, device: String, createdAt: Int64, lastSeen: Int64) {
        self.clientID = clientID
        self.device = device
        self.createdAt = createdAt
        self.lastSeen = lastSeen
    }
}

/// Shoppers and their clients as storage keeps them.
///
/// A client is stored, with a new shopper, only with its first change of a cart, name or
/// preferences: every method here and on ``CartStore`` that changes something for a
/// ``Session`` whose ``Session/isStored`` is false first stores the shopper (with the current
/// ``LiveCatalog/Snapshot/starterCart``) and the client, in the same transaction as the
/// change, so they land together or not at all. Storing one that another request stored
/// meanwhile is harmless.
///
/// Clients are known by their ``Session/clientID``, a hash of the id their cookie carries: the
/// id itself is never stored. Everything else (cart, orders, name, preferences, searches)
/// belongs to the shopper, by ``Session/shopperID``.
public protocol SessionStore: Sendable {
    /// The client stored under `clientID` with its shopper and cart, read at one moment;
    /// ``StoredClient/spent`` for a client signed out; `nil` when there is none.
    func session(clientID: String) throws -> StoredClient?

    /// Records that the client stored under `clientID` was used at `now` (seconds); nothing
    /// when there is none.
    func touch(clientID: String, at now: Int64) throws

    /// Changes the name shown on Profile, storing the shopper first if needed. Like every
    /// change for a session, it goes to the shopper the client belongs to now (the one it
    /// joined, when a join committed after the session was read), and to none when the client
    /// was signed out meanwhile.
    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws

    /// Stores the shopper's preferences, storing the shopper first if needed; to the shopper
    /// the client belongs to now, as ``setDisplayName(_:for:at:)`` does.
    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws

    /// The shopper's clients, first stored first.
    func devices(ofShopper shopperID: String) throws -> [StoredDevice]

    /// Signs clients of the shopper out, in one transaction: each of `clientIDs` that is the
    /// shopper's is spent for good (kept as a mark, so no cookie of it, before or after
    /// rotation, can come back), and a shopper left without clients is deleted with its cart
    /// and searches (its orders stay, as records of sales). A client id of `clientIDs` that
    /// is not stored at all (a browser that never changed anything) is marked spent too when
    /// `spendingUnstored` names it. The client `spendingUnstored` names (the caller's own) is
    /// spent whichever shopper it belongs to now: a join may have moved it since the caller
    /// read its session.
    /// - Returns: The ids that were the shopper's and are now spent.
    @discardableResult
    func endClients(_ clientIDs: [String], ofShopper shopperID: String, spendingUnstored: String?, at now: Int64) throws -> [String]

    /// Signs every client of the shopper but `clientID` out, as ``endClients(_:ofShopper:spendingUnstored:at:)``
    /// does, in one transaction that reads them under the shopper's lock: a device that joins
    /// meanwhile is either among them or refused (its code's device is gone).
    /// - Returns: The ids now spent.
    @discardableResult
    func endClients(ofShopper shopperID: String, except clientID: String, at now: Int64) throws -> [String]

    /// Deletes the clients last seen before `cutoff` (seconds) and the marks of clients spent
    /// before it (no cookie that old works any more), and shoppers left without clients with
    /// their carts and searches; their orders stay.
    /// - Returns: How many clients were deleted.
    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int
}
