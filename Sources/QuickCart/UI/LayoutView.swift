import Mustache

/// What every page shows around its content (`layout-start`, `layout-end`): the document
/// title, the theme and layout settings, the tab bar and its badge, the layout toggle, and
/// the two values every form needs, the session's CSRF token and the address to return to.
/// Page templates are compiled inside it, so a page's forms read `csrf` and `returnTo` here.
/// A class: its fields are read many times per page, and each read of a struct this size
/// would copy (and retain) all of it.
final class LayoutView: MustacheView {
    /// The document title, before " · QuickCart".
    let title: String
    /// The tab the page belongs to (`data-page`), or `nil` for pages of no tab.
    let tab: TabBar.TabID?
    let preferences: Preferences
    let assets: AssetsView
    let tabs: [TabView]
    /// The cart's item count, which the badge shows.
    let cartCount: Int
    /// The sidebar/tab bar switch; only for a session, as it is a form.
    let layoutToggle: LayoutToggleView?
    /// The session's CSRF token; empty without a session (such pages have no forms). Checked
    /// for escaping once here: every form of the page prints it.
    let csrf: MustacheCheckedText
    /// The address forms on this page return to: this page, with its query.
    let returnTo: MustacheCheckedText
    /// What the last change did, shown once at the top of the content (``Notice``).
    let notice: String?

    init(
        title: String, tab: TabBar.TabID?, preferences: Preferences, assets: AssetsView, tabs: [TabView], cartCount: Int,
        layoutToggle: LayoutToggleView?, csrf: String, returnTo: String, notice: String? = nil
    ) {
        self.title = title
        self.tab = tab
        self.preferences = preferences
        self.assets = assets
        self.tabs = tabs
        self.cartCount = cartCount
        self.layoutToggle = layoutToggle
        self.csrf = MustacheCheckedText(csrf)
        self.returnTo = MustacheCheckedText(returnTo)
        self.notice = notice
    }

    static let mustacheFields: MustacheFields<LayoutView> = [
        "title": .text(\.title),
        "page": .text { $0.tab?.rawValue ?? "other" },
        "theme": .text(\.preferences.theme.rawValue),
        "layout": .text { $0.preferences.usesSidebar ? "sidebar" : "bar" },
        "notifications": .text { $0.preferences.notifications ? "on" : "off" },
        "assets": .view(\.assets),
        "tabs": .list(\.tabs),
        "badgeText": .custom { view, output in Badge.write(view.cartCount, into: &output) },
        "badgeVisible": .bool { $0.cartCount > 0 },
        "itemCountText": .custom { view, output in Badge.writeItemCount(view.cartCount, into: &output) },
        "layoutToggle": .optional(\.layoutToggle),
        "csrf": .text(\.csrf),
        "returnTo": .text(\.returnTo),
        "notice": .text(\.notice),
    ]
}

/// Versioned URLs of the stylesheet and script, so browsers may cache them for long. Made once.
struct AssetsView: MustacheView {
    let css: MustacheText
    let js: MustacheText

    init(css: String, js: String) {
        self.css = MustacheText(css)
        self.js = MustacheText(js)
    }

    static let mustacheFields: MustacheFields<AssetsView> = ["css": .text(\.css), "js": .text(\.js)]
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
