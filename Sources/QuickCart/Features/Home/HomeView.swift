import Mustache

/// Home (`home.mustache`): the featured products under the page's title, then the categories.
struct HomeView: PageView {
    /// The level of the page's title ("Featured"), which the product cards sit under.
    static let titleLevel = 1

    let featured: [ProductCardView]
    let categories: [CategoryLinkView]

    static let templateName = "home"
    static let mustacheFields: MustacheFields<HomeView> = [
        "featured": .list(\.featured),
        "categories": .list(\.categories),
    ]
}
