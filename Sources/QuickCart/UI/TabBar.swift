import Mustache

/// The tabs of QuickCart, the web twin of a SwiftUI `TabView`: Home, Search, the prominent
/// Cart with its badge, and Profile.
public struct TabBar: Sendable {
    /// Which tab a page belongs to. Its root path is the one place a tab's address is written:
    /// routes, redirects and error pages take it from here.
    public enum TabID: String, Sendable, CaseIterable {
        case home, search, cart, profile

        /// The tab's root, where its link leads when it was not left elsewhere.
        public var path: String {
            switch self {
            case .home: "/"
            case .search: "/search"
            case .cart: "/cart"
            case .profile: "/profile"
            }
        }

        /// `path` followed by `rest` (`"/items"`, `"#devices-title"`, `"?order=3"`), an address under the tab.
        public func path(_ rest: String) -> String {
            self == .home ? rest : path + rest
        }

        /// What an error page's button says to lead back to the tab.
        var wayBackLabel: String {
            switch self {
            case .home: "Back to Home"
            case .search: "Back to Search"
            case .cart: "Back to your cart"
            case .profile: "Back to Profile"
            }
        }

        /// Addresses outside every tab's root that still belong to a tab (the layout
        /// toggle's form posts under `/preferences`, a Profile setting).
        private static let otherRoots: [(root: String, tab: TabID)] = [
            ("/checkout", .cart), ("/preferences", .profile), ("/orders", .profile), ("/join", .profile),
        ]

        /// The tab an address belongs to, as its page shows it: `/search…` is Search, `/cart…`
        /// and `/checkout…` Cart, `/profile…`, `/preferences…`, `/orders…` and `/join…`
        /// Profile, anything else Home.
        public init(of address: String) {
            for (root, tab) in Self.allCases.filter({ $0 != .home }).map({ ($0.path, $0) }) + Self.otherRoots
            where address == root || address.hasPrefix(root + "/") || address.hasPrefix(root + "?") {
                self = tab
                return
            }
            self = .home
        }
    }

    /// A tab's role, as in SwiftUI's `Tab(role:)`.
    public enum Role: Sendable {
        /// An ordinary tab.
        case standard
        /// The search tab.
        case search
        /// The one tab drawn larger than its neighbours, carrying the badge.
        case prominent
    }

    /// One tab.
    public struct Tab: Sendable {
        /// Which tab it is, as sessions' tab orders name it.
        public let id: TabID
        /// The label under the icon, and the link's accessible name.
        public let title: String
        /// The icon's file name in `Public/icons/`, without `.svg`.
        public let icon: String
        /// Where the tab leads when it was not left elsewhere.
        public var path: String { id.path }
        /// Its role in the bar: ordinary, search, or the prominent one carrying the badge.
        public let role: Role
        /// The icon's SVG markup, once ``withIcons(from:)`` has looked it up.
        var iconMarkup = ""
        /// What the bar prints for the tab, made (and escaped) once rather than on every page.
        var printed = Printed(id: "", title: "", path: "", icon: "")
    }

    /// A tab's texts as pages print them, with their escaped bytes: a class, so a page's
    /// tabs share them rather than copying strings.
    final class Printed: Sendable {
        let id: MustacheText
        let title: MustacheText
        /// The tab's root, where its link leads unless it was left elsewhere.
        let path: MustacheText
        let icon: MustacheText

        init(id: String, title: String, path: String, icon: String) {
            self.id = MustacheText(id)
            self.title = MustacheText(title)
            self.path = MustacheText(path)
            self.icon = MustacheText(icon)
        }
    }

    /// The tabs in the order the bar shows them.
    public let tabs: [Tab]
    /// The bar as most pages show it, in the standard order with every tab leading to its
    /// root: made once for each current tab, on its root and deeper, at ``rootBarIndex(_:atRoot:)``.
    private let rootBars: [[TabItemView]]

    /// A bar of `tabs`, in that order.
    public init(tabs: [Tab]) {
        self.tabs = tabs
        rootBars = [Self.views(of: tabs, current: nil, atRoot: true, places: [:])]
            + TabID.allCases.flatMap { current in
                [true, false].map { atRoot in Self.views(of: tabs, current: current, atRoot: atRoot, places: [:]) }
            }
    }

    /// Where the bar for `current` is among ``rootBars``: `nil` first, then the tabs in their
    /// declared order, each on its root and then deeper (a switch: `allCases` would make an
    /// array on every page).
    private static func rootBarIndex(_ current: TabID?, atRoot: Bool) -> Int {
        let tab: Int
        switch current {
        case nil: return 0
        case .home: tab = 0
        case .search: tab = 1
        case .cart: tab = 2
        case .profile: tab = 3
        }
        return 1 + 2 * tab + (atRoot ? 0 : 1)
    }

    /// QuickCart's tabs in their standard order.
    public static let standard = TabBar(tabs: [
        Tab(id: .home, title: "Home", icon: "home", role: .standard),
        Tab(id: .search, title: "Search", icon: "search", role: .search),
        Tab(id: .cart, title: "Cart", icon: "cart", role: .prominent),
        Tab(id: .profile, title: "Profile", icon: "profile", role: .standard),
    ])

    /// This bar with each tab's icon markup looked up once, rather than on every page.
    func withIcons(from icons: IconSet) -> TabBar {
        TabBar(tabs: tabs.map { tab in
            var tab = tab
            tab.iconMarkup = icons[tab.icon]
            tab.printed = Printed(id: tab.id.rawValue, title: tab.title, path: tab.path, icon: tab.iconMarkup)
            return tab
        })
    }

    /// The tabs in a person's order: the movable tabs as `order` lists them (when it names
    /// each exactly once), the prominent tab pinned to its own place.
    func arranged(by order: [String]) -> [Tab] {
        // Most people keep the standard order.
        guard !order.isEmpty else { return tabs }
        let movable = tabs.filter { $0.role != .prominent }
        var arranged = order.compactMap { id in movable.first { $0.id.rawValue == id } }
        if Set(arranged.map(\.id)).count != movable.count || arranged.count != movable.count {
            arranged = movable
        }
        for (index, tab) in tabs.enumerated() where tab.role == .prominent {
            arranged.insert(tab, at: index)
        }
        return arranged
    }

    /// The ids of the tabs a person may move, in the standard order.
    var movableTabIDs: [String] {
        tabs.filter { $0.role != .prominent }.map(\.id.rawValue)
    }

    /// The tabs as the tab bar shows them, with `current` marked: as the page shown when
    /// `atRoot` (the page is the tab's root, whatever its query), as the section the page is in
    /// when not (Checkout in Cart, an order in Profile). `places` maps a tab to the address it
    /// was last left at, which its link returns to; the current tab's link always leads to the
    /// tab's root, as on iOS.
    func views(current: TabID?, atRoot: Bool, order: [String], places: [TabID: String]) -> [TabItemView] {
        if order.isEmpty, places.isEmpty {
            return rootBars[Self.rootBarIndex(current, atRoot: atRoot)]
        }
        return Self.views(of: arranged(by: order), current: current, atRoot: atRoot, places: places)
    }

    private static func views(of tabs: [Tab], current: TabID?, atRoot: Bool, places: [TabID: String]) -> [TabItemView] {
        tabs.map { tab in
            let isCurrent = tab.id == current
            // Most tabs lead to their root: its bytes are made already.
            let place = isCurrent ? nil : places[tab.id].flatMap { $0 == tab.path ? nil : MustacheText($0) }
            return TabItemView(tab: tab, isCurrent: isCurrent, isCurrentPage: isCurrent && atRoot, path: place ?? tab.printed.path)
        }
    }
}

/// One tab of the bar on a page (what SwiftUI calls a tab's `tabItem`; the bar, ``TabBar``,
/// is the `TabView`): the tab (made once, icon included) and what this page adds. The badge
/// it carries is the layout's (``LayoutView``).
struct TabItemView: MustacheView {
    let tab: TabBar.Tab
    let isCurrent: Bool
    /// Whether the page shown is the current tab's own: its link is then `aria-current="page"`;
    /// deeper in the tab's section, `"true"` (the link is not the page shown).
    let isCurrentPage: Bool
    /// Where the link leads: the tab's root, or where the tab was last left.
    let path: MustacheText

    static let mustacheFields: MustacheFields<TabItemView> = [
        "id": .text(\.tab.printed.id),
        "title": .text(\.tab.printed.title),
        "path": .text(\.path),
        "icon": .text(\.tab.printed.icon),
        "current": .text { $0.isCurrent ? ($0.isCurrentPage ? "page" : "true") : nil },
        "prominent": .bool { $0.tab.role == .prominent },
    ]
}

/// How counts read on the badge and to screen readers.
enum Badge {
    /// The badge's text: the count, whole (a pill that grows, never "99+": the count is what
    /// the badge promises).
    static func text(for count: Int) -> String {
        String(count)
    }

    /// "1 item", "3 items".
    static func itemCountText(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }

    /// The badge's text, written into a page without making a string.
    static func write(_ count: Int, into output: inout MustacheOutput) {
        output.append(decimal: count)
    }

    /// What the Cart tab's name says where the count is not known (the offline page).
    static let unknownCountText = "count not known offline"

    /// "1 item", "3 items", written into a page without making a string.
    static func writeItemCount(_ count: Int, into output: inout MustacheOutput) {
        output.append(decimal: count)
        output.append(count == 1 ? " item" : " items")
    }
}
