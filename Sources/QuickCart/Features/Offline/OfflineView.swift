import Mustache

/// The offline page (`offline.mustache`): what the service worker shows for a page that could
/// not be loaded, with the tab bar and a way to try again. It reads no session and holds no
/// cart: the worker keeps one copy for every moment, so nothing on it may belong to one.
struct OfflineView: PageView {
    static let templateName = "offline"
    static let mustacheFields: MustacheFields<OfflineView> = [:]
}
