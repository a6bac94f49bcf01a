/// One shopper's session: whose cart, orders and settings a request reaches.
public struct Session: Sendable, Equatable {
    /// The random id from the cookie; never shown, never logged.
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
    /// Theme, tab order, layout and notification settings.
    public var preferences: Preferences = .standard

    /// The name a session has until the shopper picks one.
    public static let defaultDisplayName = "Guest"
}
