/// One shopper's session: whose cart, orders and settings a request reaches.
///
/// The random id in the cookie never leaves ``SessionManager``: storage knows a session by a
/// hash of it (``storageID``) and the live badge by a keyed hash (``liveKey``), so neither a
/// leaked database nor news passed between machines hands out a live session.
public struct Session: Sendable, Equatable {
    /// What storage knows the session by: the SHA-256 of the id its cookie carries once the
    /// session is stored (64 hex digits). For a session not stored yet, that is the id its
    /// first change moves it to, not the id of this request's cookie (see ``SessionManager``).
    public let storageID: String
    /// When the session began (seconds since 1970, UTC).
    public let createdAt: Int64
    /// The name shown on Profile.
    public var displayName: String
    /// Whether the session has a row in the database. A session is stored only when it first
    /// changes its cart, name or preferences, so crawlers and readers cost no storage.
    public var isStored: Bool
    /// The token every form of this session carries. It is the stored session's token from
    /// the start, so forms of other tabs still work after the first change rotates the id.
    public let csrfToken: String
    /// A keyed hash of this request's cookie id (HMAC under the shop's secret): news about
    /// the session may travel between machines under such keys without giving the id away.
    public let liveKey: String
    /// The live key of the stored session: ``liveKey`` once stored; before, the key of the id
    /// the first change moves it to. Streams subscribe under it, even before the session is
    /// stored, and news of a change goes here; the change that stores the session also moves
    /// any streams of ``liveKey`` here.
    public let storedLiveKey: String
    /// Theme, tab order, layout and notification settings.
    public var preferences: Preferences = .standard
    /// The newest of the session's recent searches, read with it; `nil` while it is not stored
    /// (only stored sessions keep searches).
    public var newestSearch: String?

    /// The name a session has until the shopper picks one.
    public static let defaultDisplayName = "Guest"

    /// A session as ``SessionManager`` derives it from a cookie (and storage); the
    /// preferences start as ``Preferences/standard`` and the newest search as `nil`.
    public init(
        storageID: String, createdAt: Int64, displayName: String, isStored: Bool,
        csrfToken: String, liveKey: String, storedLiveKey: String
    ) {
        self.storageID = storageID
        self.createdAt = createdAt
        self.displayName = displayName
        self.isStored = isStored
        self.csrfToken = csrfToken
        self.liveKey = liveKey
        self.storedLiveKey = storedLiveKey
    }
}
