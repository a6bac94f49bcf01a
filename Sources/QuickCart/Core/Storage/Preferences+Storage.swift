/// How every backend stores ``Preferences`` in a session's row: the theme by its raw value and
/// the tab order as ids joined by commas, so the rule lives once, not in each store.
extension Preferences {
    /// Preferences read back from their stored columns; an unknown theme reads as `system`.
    init(storedTheme: String, storedTabOrder: String, usesSidebar: Bool, notifications: Bool) {
        self.init(
            theme: Theme(rawValue: storedTheme) ?? .system,
            tabOrder: storedTabOrder.split(separator: ",").map(String.init),
            usesSidebar: usesSidebar,
            notifications: notifications
        )
    }

    /// The tab order as its column holds it.
    var storedTabOrder: String { tabOrder.joined(separator: ",") }
}
