import MicroHTTP

/// What the shop's features are built from (``ShopFeature``): storage, sessions, the page
/// renderer and the live parts, each made once at start and shared.
struct ShopContext: Sendable {
    let configuration: Configuration
    let storage: any ShopStorage
    let sessionManager: SessionManager
    let pages: PageRenderer
    /// The catalog as pages show it, kept current as imports land.
    let catalogDisplay: CatalogDisplay
    /// Where changes are published (and sign-outs end streams), on every instance.
    let publisher: any BadgePublisher
    let hub: BadgeHub
    /// Searches of sessions not stored yet: the Search tab keeps them, every page's session reads them.
    let recentSearchCookies: RecentSearchCookies
    /// Joining with a code and signing devices out, for the web's forms and the API alike.
    let joining: DeviceJoining
    let staticFiles: StaticFiles
    /// The versioned addresses of the style sheet, the script and the icons pages link.
    let assets: AssetsView
    /// ``AppRelease``'s digest.
    let release: String
    /// The time handlers see.
    let clock: Clock
}
