/// One shopper's session: whose cart, orders and settings a request reaches.
public struct Session: Sendable, Equatable {
    /// The random id from the cookie; never shown, never logged, never sent to another machine.
    public let id: String
    /// When the session began (seconds since 1970, UTC).
    public let createdAt: Int64
    /// The name shown on Profile.
    public var displayName: String
    /// Whether the session has a row in the database. A session is stored only when it first
    /// changes something, so crawlers and one-page visitors cost no storage.
    public var isStored: Bool
    /// The token every form of this session carries.
    public let csrfToken: String
    /// A keyed hash of the id (HMAC under the shop's secret) that names the session's live
    /// badge: the hub's listeners are found by it, and news about the session may travel
    /// between machines under it without giving the id away.
    public let liveKey: String
    /// Theme, tab order, layout and notification settings.
    public var preferences: Preferences = .standard

    /// The name a session has until the shopper picks one.
    public static let defaultDisplayName = "Guest"
}
