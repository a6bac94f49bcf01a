/// How a session likes the shop to look and behave; stored with the session.
public struct Preferences: Sendable, Equatable {
    /// The colour scheme: the system's, or one forced on.
    public enum Theme: String, Sendable, CaseIterable {
        case system, light, dark
    }

    public var theme: Theme
    /// The order of the tabs a person may move, by id (Cart is pinned and not listed).
    public var tabOrder: [String]
    /// On wide screens, a sidebar instead of the floating tab bar.
    public var usesSidebar: Bool
    /// A short in-page notice when the cart changes in another tab.
    public var notifications: Bool

    /// What a new session gets.
    public static let standard = Preferences(theme: .system, tabOrder: [], usesSidebar: false, notifications: true)

    public init(theme: Theme, tabOrder: [String], usesSidebar: Bool, notifications: Bool) {
        self.theme = theme
        self.tabOrder = tabOrder
        self.usesSidebar = usesSidebar
        self.notifications = notifications
    }
}
