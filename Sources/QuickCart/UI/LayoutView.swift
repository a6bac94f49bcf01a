import Mustache

/// What every page shows around its content (`layout-start`, `layout-end`): the document
/// title, the theme and layout settings, the tab bar and its badge, the layout toggle, and
/// the two values every form needs, the session's CSRF token and the address to return to.
/// Page templates are compiled inside it, so a page's forms read `csrf` and `returnTo` here.
/// A class: its fields are read many times per page, and each read of a struct this size
/// would copy (and retain) all of it.
final class LayoutView: MustacheView {
    /// The document title, before " · " and the shop's name.
    let title: String
    /// The tab the page belongs to (`data-page`), or `nil` for pages of no tab.
    let tab: TabBar.TabID?
    let preferences: Preferences
    let assets: AssetsView
    /// The shop's name and release, the same on every page.
    let shop: ShopView
    /// Whether this is the offline page: the badge's count is not known there.
    let isOffline: Bool
    let tabs: [TabItemView]
    /// The cart's item count, which the badge shows.
    let cartCount: Int
    /// The sidebar/tab bar switch; only for a session, as it is a form.
    let layoutToggle: LayoutToggleView?
    /// The session's CSRF token; empty without a session (such pages have no forms). Checked
    /// for escaping once here: every form of the page prints it.
    let csrf: MustacheCheckedText
    /// The address forms on this page return to: this page, with its query.
    let returnTo: MustacheCheckedText
    /// What the last change did, shown once at the top of the content (``Notice``), with its
    /// Undo form after Remove.
    let notice: NoticeView?

    init(
        title: String, tab: TabBar.TabID?, preferences: Preferences, assets: AssetsView, shop: ShopView, tabs: [TabItemView], cartCount: Int,
        layoutToggle: LayoutToggleView?, csrf: String, returnTo: String, notice: Notice? = nil, isOffline: Bool = false
    ) {
        self.title = title
        self.tab = tab
        self.preferences = preferences
        self.assets = assets
        self.shop = shop
        self.isOffline = isOffline
        self.tabs = tabs
        self.cartCount = cartCount
        self.layoutToggle = layoutToggle
        self.csrf = MustacheCheckedText(csrf)
        self.returnTo = MustacheCheckedText(returnTo)
        self.notice = notice.map(NoticeView.init)
    }

    static let mustacheFields: MustacheFields<LayoutView> = [
        "title": .text(\.title),
        "page": .text { $0.isOffline ? "offline" : $0.tab?.rawValue ?? "other" },
        "theme": .text(\.preferences.theme.rawValue),
        "themeColor": .text { $0.preferences.theme == .dark ? AppManifest.darkBackground : AppManifest.lightBackground },
        "layout": .text { $0.preferences.usesSidebar ? "sidebar" : "bar" },
        "notifications": .text { $0.preferences.notifications ? "on" : "off" },
        // The same on every page: the layout is fixed with them at start (``PageTemplates/fixing(_:)``).
        "assets": .constant(.view(\.assets)),
        "shop": .constant(.view(\.shop)),
        "tabs": .list(\.tabs),
        "badgeText": .custom { view, output in Badge.write(view.cartCount, into: &output) },
        "badgeVisible": .bool { $0.cartCount > 0 && !$0.isOffline },
        "itemCountText": .custom { view, output in
            // Offline, the count is whatever it was when last seen: the page's script fills
            // that in, marked as possibly out of date (see Views/offline.mustache).
            if view.isOffline { output.append(Badge.unknownCountText) } else { Badge.writeItemCount(view.cartCount, into: &output) }
        },
        "layoutToggle": .optional(\.layoutToggle),
        "csrf": .text(\.csrf),
        "returnTo": .text(\.returnTo),
        "notice": .optional(\.notice),
    ]
}

/// Versioned URLs of the stylesheet, script and icons, so browsers (and the service worker)
/// may cache them for long. Made once.
struct AssetsView: MustacheView {
    let css: MustacheText
    let js: MustacheText
    /// The tab's icon (SVG).
    let favicon: MustacheText
    /// The icon a home screen shows for a bookmark (a square PNG, which the system rounds).
    let touchIcon: MustacheText

    init(css: String, js: String, favicon: String = "/static/icons/favicon.svg", touchIcon: String = "/static/icons/app/maskable-192.png") {
        self.css = MustacheText(css)
        self.js = MustacheText(js)
        self.favicon = MustacheText(favicon)
        self.touchIcon = MustacheText(touchIcon)
    }

    static let mustacheFields: MustacheFields<AssetsView> = [
        "css": .text(\.css), "js": .text(\.js), "favicon": .text(\.favicon), "touchIcon": .text(\.touchIcon),
    ]
}

/// What the shop calls itself, on every page (title, header) and in the app's manifest, the
/// release it runs, which the page's script hands the service worker, and how often its event
/// streams send a keep-alive comment, by which the script tells a silent stream. Made once.
struct ShopView: MustacheView {
    let name: MustacheText
    /// The name under the icon on a home screen.
    let shortName: MustacheText
    /// Changes whenever anything a page or the offline page is made of changes (``AppRelease``).
    let release: MustacheText
    /// ``Configuration/heartbeatInterval`` in milliseconds (the tab bar's `data-live-heartbeat`).
    let heartbeat: MustacheText

    init(_ identity: ShopIdentity, release: String, heartbeatInterval: Double = Configuration().heartbeatInterval) {
        name = MustacheText(identity.name)
        shortName = MustacheText(identity.shortName)
        self.release = MustacheText(release)
        heartbeat = MustacheText(String(Int((heartbeatInterval * 1000).rounded())))
    }

    static let mustacheFields: MustacheFields<ShopView> = [
        "name": .text(\.name), "shortName": .text(\.shortName), "release": .text(\.release), "heartbeat": .text(\.heartbeat),
    ]
}

/// The button beside the tab bar that switches between sidebar and tab bar on wide screens.
/// There are two, made once; the form's token and return address come from the layout.
struct LayoutToggleView: MustacheView {
    /// What pressing it switches to.
    let value: MustacheText
    /// What a press does ("Show sidebar"): the button's name.
    let label: MustacheText
    let icon: MustacheText

    init(value: String, label: String, icon: String) {
        self.value = MustacheText(value)
        self.label = MustacheText(label)
        self.icon = MustacheText(icon)
    }

    static let mustacheFields: MustacheFields<LayoutToggleView> = [
        "value": .text(\.value),
        "label": .text(\.label),
        "icon": .text(\.icon),
    ]

    /// The toggle for a page showing the sidebar (`usesSidebar`) or the tab bar.
    static func pair(icon: String) -> (sidebar: LayoutToggleView, bar: LayoutToggleView) {
        (
            LayoutToggleView(value: "bar", label: "Show tab bar", icon: icon),
            LayoutToggleView(value: "sidebar", label: "Show sidebar", icon: icon)
        )
    }
}
