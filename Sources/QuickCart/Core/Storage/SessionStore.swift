/// A stored session, read together with its cart, so resolving a request's session and
/// showing its cart (or badge) costs one read.
public struct StoredSession: Sendable, Equatable {
    /// When the session began (seconds since 1970, UTC).
    public var createdAt: Int64
    /// When it was last touched (seconds since 1970, UTC).
    public var lastSeen: Int64
    /// The name shown on Profile (``Session/defaultDisplayName`` until the shopper picks one).
    public var displayName: String
    /// Theme, tab order, layout and notification settings.
    public var preferences: Preferences
    /// Its cart, in the order items were added.
    public var cart: Cart
    /// The cart's version: it grows with every change (``CartChange/version``).
    public var cartVersion: Int64
    /// The newest of its recent searches (``SearchHistoryStore``), if any.
    public var newestSearch: String?

    public init(
        createdAt: Int64, lastSeen: Int64, displayName: String, preferences: Preferences, cart: Cart, cartVersion: Int64,
        newestSearch: String? = nil
    ) {
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.displayName = displayName
        self.preferences = preferences
        self.cart = cart
        self.cartVersion = cartVersion
        self.newestSearch = newestSearch
    }
}

/// Sessions as storage keeps them.
///
/// A session is stored only with its first change of its cart, name or preferences: every
/// method here and on ``CartStore`` that changes something for a ``Session`` whose
/// ``Session/isStored`` is false first stores it (with the current ``CatalogSource/Snapshot/starterCart``), in the
/// same transaction as the change, so the two land together or not at all. Storing a session
/// that another request stored meanwhile is harmless.
///
/// Sessions are known by their ``Session/storageID``, a hash of the id their cookie carries:
/// the id itself is never stored.
public protocol SessionStore: Sendable {
    /// The session stored under `storageID` with its cart, read at one moment; `nil` when
    /// there is none.
    func session(storageID: String) throws -> StoredSession?

    /// Records that the session stored under `storageID` was used at `now` (seconds); nothing
    /// when there is none.
    func touch(storageID: String, at now: Int64) throws

    /// Changes the name shown on Profile, storing the session first if needed.
    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws

    /// Stores the session's preferences, storing the session first if needed.
    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws

    /// Deletes the session stored under `storageID` with its cart and searches (its orders
    /// stay); nothing when there is none.
    func deleteSession(storageID: String) throws

    /// Deletes the sessions last seen before `cutoff` (seconds), with their carts and searches;
    /// their orders stay.
    /// - Returns: How many sessions were deleted.
    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int
}
