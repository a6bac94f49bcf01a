/// The shop's name, as its owner sets it (`--shop-name`, `--shop-short-name`): in every page's
/// title and header, and in the installed app's manifest.
public struct ShopIdentity: Sendable, Equatable {
    /// The full name: "Trailhead Outfitters".
    public let name: String
    /// The name under the app's icon on a home screen, where about 12 characters fit.
    public let shortName: String

    /// - Parameter shortName: The name itself when not given.
    public init(name: String, shortName: String? = nil) {
        self.name = name
        self.shortName = shortName ?? name
    }

    /// The name the shop has until its owner gives it one.
    public static let standard = ShopIdentity(name: "QuickCart")
}
