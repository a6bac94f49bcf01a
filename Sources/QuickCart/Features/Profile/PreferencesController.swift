import MicroHTTP
import Mustache

extension PreferencesController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let preferences = PreferencesController(sessions: shop.storage.sessions, tabBar: shop.pages.tabBar, notices: shop.pages.notices)
        routes.post(tab.path("/theme"), use: preferences.setTheme)
        routes.post(tab.path("/tabs"), use: preferences.arrangeTabs)
        routes.post(tab.path("/tabs/reset"), use: preferences.resetTabs)
        routes.post(tab.path("/notifications"), use: preferences.setNotifications)
        routes.post("/preferences/layout", use: preferences.setLayout)
    }

    /// Where the settings are shown (their forms return to their section there).
    private static let tab = TabBar.TabID.profile
}

/// The settings a session keeps: theme, tab order (Cart pinned), the wide-screen sidebar and
/// notifications. Every change is a plain form post answered with 303.
struct PreferencesController: Sendable {
    let sessions: any SessionStore
    let tabBar: TabBar
    /// For the notices that say what a change of the tab order did.
    let notices: NoticeCookies

    /// `POST /profile/theme` with `theme` = `system`, `light` or `dark`.
    func setTheme(_ request: ShopRequest) throws -> Response {
        guard let theme = request.http.form["theme"].flatMap(Preferences.Theme.init(rawValue:)) else {
            throw HTTPError(.badRequest, "Choose a theme: System, Light or Dark.")
        }
        return try save(request, returnTo: request.returnPath(default: Self.tab.path, at: "appearance-title")) { $0.theme = theme }
    }

    /// `POST /profile/tabs` with `tab` and `move` = `up`/`down`, or with `order`, the movable
    /// tabs' ids separated by commas (what drag and drop sends).
    func arrangeTabs(_ request: ShopRequest) throws -> Response {
        let current = tabBar.arranged(by: request.session.preferences.tabOrder)
            .map(\.id.rawValue).filter { tabBar.movableTabIDs.contains($0) }
        var order = current
        var moved: String?
        if let list = request.http.form["order"] {
            order = list.split(separator: ",").map { $0.trimmingWhitespace(newlines: false) }
            guard order.sorted() == tabBar.movableTabIDs.sorted() else {
                throw HTTPError(.badRequest, "The tab order must list \(movableTitles(joinedBy: "and")) once each.")
            }
        } else {
            guard let tab = request.http.form["tab"], let index = order.firstIndex(of: tab) else {
                throw HTTPError(.badRequest, "Choose \(movableTitles(joinedBy: "or")) to move; \(pinnedTitles) keeps its place.")
            }
            let title = tabBar.arranged(by: order).first { $0.id.rawValue == tab }?.title ?? tab
            switch request.http.form["move"] {
            case "up" where index > 0: order.swapAt(index, index - 1); moved = "Moved \(title) up."
            case "down" where index < order.count - 1: order.swapAt(index, index + 1); moved = "Moved \(title) down."
            case "up": moved = "\(title) is first already."
            case "down": moved = "\(title) is last already."
            default: throw HTTPError(.badRequest, "A tab moves up or down.")
            }
        }
        let saved = order == tabBar.movableTabIDs ? [] : order
        return try save(request, returnTo: request.returnPath(default: Self.tab.path, at: Self.tabsSection), notice: tabOrderNotice(moved ?? "Saved the tab order.", saved)) {
            $0.tabOrder = saved
        }
    }

    /// `POST /profile/tabs/reset`: the standard order.
    func resetTabs(_ request: ShopRequest) throws -> Response {
        try save(request, returnTo: request.returnPath(default: Self.tab.path, at: Self.tabsSection), notice: tabOrderNotice("Tab order reset.", [])) { $0.tabOrder = [] }
    }

    /// Profile's Customize tab bar section.
    private static let tabsSection = "tabs-title"

    /// The movable tabs' titles as a sentence lists them: "Home, Search and Profile".
    private func movableTitles(joinedBy conjunction: String) -> String {
        let titles = tabBar.tabs.filter { $0.role != .prominent }.map(\.title)
        guard let last = titles.last, titles.count > 1 else { return titles.last ?? "" }
        return titles.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// The pinned tab's title ("Cart").
    private var pinnedTitles: String {
        tabBar.tabs.filter { $0.role == .prominent }.map(\.title).joined(separator: ", ")
    }

    /// What a change of the tab order did, then the whole bar in its new order, Cart included
    /// ("Moved Search up. Tab bar: Search, Home, Cart, Profile."): the page script speaks it, so
    /// a screen reader hears where the tab went.
    private func tabOrderNotice(_ what: String, _ order: [String]) -> String {
        "\(what) Tab bar: \(tabBar.arranged(by: order).map(\.title).joined(separator: ", "))."
    }

    /// `POST /profile/notifications` with `notifications` = `on`/`off`.
    func setNotifications(_ request: ShopRequest) throws -> Response {
        guard let value = request.http.form["notifications"], ["on", "off"].contains(value) else {
            throw HTTPError(.badRequest, "Notifications are on or off.")
        }
        return try save(request, returnTo: request.returnPath(default: Self.tab.path, at: "settings-title")) { $0.notifications = value == "on" }
    }

    /// `POST /preferences/layout` with `layout` = `sidebar`/`bar`, from the button beside the
    /// tab bar; back to the page it came from.
    func setLayout(_ request: ShopRequest) throws -> Response {
        guard let value = request.http.form["layout"], ["sidebar", "bar"].contains(value) else {
            throw HTTPError(.badRequest, "The layout is a sidebar or a tab bar.")
        }
        return try save(request, returnTo: request.returnPath(default: TabBar.TabID.home.path)) { $0.usesSidebar = value == "sidebar" }
    }

    private func save(_ request: ShopRequest, returnTo: String, notice: String? = nil, _ change: (inout Preferences) -> Void) throws -> Response {
        var preferences = request.session.preferences
        change(&preferences)
        try sessions.setPreferences(preferences, for: request.session, at: request.now)
        var response = Response.redirect(to: returnTo)
        if let notice { response.setCookie(notices.cookie(Notice(text: notice), for: request)) }
        return response
    }
}
