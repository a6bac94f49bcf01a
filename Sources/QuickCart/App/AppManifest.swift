import FoundationEssentials

/// The web app manifest (`/manifest.webmanifest`): what a browser needs to install the shop as
/// an app on a home screen, in the shop's own name. Made once at start.
struct AppManifest: Encodable {
    struct Icon: Encodable {
        let src: String
        let sizes: String
        let type = "image/png"
        let purpose: String
    }

    struct Shortcut: Encodable {
        let name: String
        let short_name: String
        let description: String
        let url: String
        let icons: [Icon]
    }

    let id = "/"
    let name: String
    let short_name: String
    let description: String
    let lang = "en"
    let dir = "ltr"
    let start_url = "/"
    let scope = "/"
    let display = "standalone"
    /// The light theme's background (`--bg`): the window's colour before the first paint, and
    /// the title bar's. Pages add the dark one as a `theme-color` for dark mode.
    let theme_color = AppManifest.lightBackground
    let background_color = AppManifest.lightBackground
    let icons: [Icon]
    let shortcuts: [Shortcut]

    /// `Public/css/app.css`'s `--bg`, light and dark.
    static let lightBackground = "#f2f2f7"
    static let darkBackground = "#000000"

    /// The manifest of `shop`; `url` gives a file of `Public/` its versioned address.
    init(shop: ShopIdentity, url: (String) -> String) {
        name = shop.name
        short_name = shop.shortName
        description = "\(shop.name): browse, search, fill your cart and check out."
        icons = [192, 512].flatMap { size in
            [
                Icon(src: url("icons/app/icon-\(size).png"), sizes: "\(size)x\(size)", purpose: "any"),
                Icon(src: url("icons/app/maskable-\(size).png"), sizes: "\(size)x\(size)", purpose: "maskable"),
            ]
        }
        shortcuts = [
            Shortcut(
                name: "Cart", short_name: "Cart", description: "Your cart", url: TabBar.TabID.cart.path,
                icons: [Icon(src: url("icons/app/cart-96.png"), sizes: "96x96", purpose: "any")]
            ),
            Shortcut(
                name: "Search", short_name: "Search", description: "Search the shop", url: TabBar.TabID.search.path,
                icons: [Icon(src: url("icons/app/search-96.png"), sizes: "96x96", purpose: "any")]
            ),
        ]
    }

    /// The icons' addresses, which the service worker keeps.
    var iconURLs: [String] {
        icons.map(\.src) + shortcuts.flatMap { $0.icons.map(\.src) }
    }

    /// The manifest as JSON, keys sorted so the same shop always gives the same bytes.
    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
