/// A part of the shop that registers itself: builds its controller from the shop's parts,
/// compiles the templates of the pages it shows, and adds its routes, all in one place, as
/// Vapor's and Hummingbird's route collections do. The app composes ``ShopFeatures/all``.
///
/// ```swift
/// extension AboutController: ShopFeature {
///     static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
///         let about = AboutController(page: try shop.pages.page(AboutView.self, tab: .home))
///         routes.get("/about", use: about.show)
///     }
/// }
/// ```
protocol ShopFeature: Sendable {
    /// Builds the feature from `shop` and adds its routes to `routes`.
    /// - Throws: ``TemplateError`` when a page's template does not fit its view: the start stops.
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws
}

/// Every feature of the shop, in the order their routes are added.
enum ShopFeatures {
    static let all: [any ShopFeature.Type] = [
        HomeController.self,
        SearchController.self,
        CartController.self,
        CheckoutController.self,
        ProfileController.self,
        SavedDeliveryController.self,
        OrdersController.self,
        DevicesController.self,
        PreferencesController.self,
        EventsController.self,
        APIRoutes.self,
        StaticAssets.self,
        InstallableApp.self,
        MediaFiles.self,
        HealthCheck.self,
    ]
}
