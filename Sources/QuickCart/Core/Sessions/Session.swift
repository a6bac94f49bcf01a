/// One request's way in: the client (a browser session) it came through, and the shopper that
/// client belongs to, whose cart, orders and settings the request reaches.
///
/// A shopper owns the cart, orders, display name, preferences and recent searches; a client is
/// attached to exactly one shopper, and a shopper has one or more clients (devices that joined
/// with a code). The random id in the cookie never leaves ``SessionManager``: storage knows a
/// client by a hash of it (``clientID``) and the live badge by keyed hashes (``liveKey``,
/// ``shopperLiveKey``), so neither a leaked database nor news passed between machines hands out
/// a working cookie.
public struct Session: Sendable, Equatable {
    /// What storage knows the client by: the SHA-256 of the id its cookie carries once it is
    /// stored (64 hex digits). For a client not stored yet, that is the id its first change
    /// moves it to, not the id of this request's cookie (see ``SessionManager``).
    public let clientID: String
    /// What storage knows the shopper by. Until the first change stores it, the id the new
    /// shopper will be stored under (a keyed hash of ``clientID``), so racing first changes
    /// reach one shopper.
    public let shopperID: String
    /// When the shopper began (seconds since 1970, UTC).
    public let createdAt: Int64
    /// The name shown on Profile.
    public var displayName: String
    /// Whether the client (and so its shopper) has a row in the database. It is stored only
    /// when it first changes a cart, name or preferences, so crawlers and readers cost no storage.
    public var isStored: Bool
    /// The token every form of this client carries: per client, so that a device signed out
    /// takes its forms' token with it. It is the stored client's token from the start, so
    /// forms of other tabs still work after the first change rotates the id.
    public let csrfToken: String
    /// The client's live key (an HMAC of ``clientID`` under the shop's secret): its streams
    /// are tagged with it, so signing the client out ends them, on every instance.
    public let liveKey: String
    /// The shopper's live key: every stream of every client of the shopper listens under it,
    /// so a change through any client reaches them all.
    public let shopperLiveKey: String
    /// Theme, tab order, layout and notification settings.
    public var preferences: Preferences = .standard
    /// The newest of the shopper's recent searches, read with it; for a client not stored
    /// yet, the newest of ``waitingSearches``.
    public var newestSearch: String?
    /// A client not stored yet: its recent searches, newest first, which wait in a cookie of
    /// their own (set by the route's handler). The change that stores the client stores them
    /// with it, and a join takes them into the cart joined, in the same transaction.
    public var waitingSearches: [String] = []
    /// The device the client is, coarsely ("Chromium on Linux"), from the User-Agent of the
    /// request that stores it; what Profile's devices list shows.
    public var device: String = ""
    /// Whether a client not stored yet starts with an empty cart instead of the shop's starter
    /// cart (a browser signed out): its first change stores the shopper with nothing in it.
    public var startsEmpty = false
    /// Whether the request came with the cookie a first change replaced, within its short
    /// grace: it may finish what was in flight, but not reach further (it is given no cookie).
    public var isGraceCookie = false

    /// The name a shopper has until they pick one.
    public static let defaultDisplayName = "Guest"

    /// A session as ``SessionManager`` derives it from a cookie (and storage); the
    /// preferences start as ``Preferences/standard`` and the newest search as `nil`.
    public init(
        clientID: String, shopperID: String, createdAt: Int64, displayName: String, isStored: Bool,
        csrfToken: String, liveKey: String, shopperLiveKey: String
    ) {
        self.clientID = clientID
        self.shopperID = shopperID
        self.createdAt = createdAt
        self.displayName = displayName
        self.isStored = isStored
        self.csrfToken = csrfToken
        self.liveKey = liveKey
        self.shopperLiveKey = shopperLiveKey
    }

    /// This session as it is once its client belongs to the shopper `shopperID` (whose live key
    /// is `shopperLiveKey`): for a change that finds its client joined another cart while the
    /// request was on its way.
    func onShopper(_ shopperID: String, liveKey shopperLiveKey: String) -> Session {
        var moved = Session(
            clientID: clientID, shopperID: shopperID, createdAt: createdAt, displayName: displayName, isStored: true,
            csrfToken: csrfToken, liveKey: liveKey, shopperLiveKey: shopperLiveKey
        )
        moved.preferences = preferences
        moved.device = device
        return moved
    }
}
