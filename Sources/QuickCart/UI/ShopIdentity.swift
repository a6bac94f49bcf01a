/// The shop's name, as its owner sets it (`--shop-name`, `--shop-short-name`): in every page's
/// title and header, and in the installed app's manifest.
public struct ShopIdentity: Sendable, Equatable {
    /// The full name: "Trailhead Outfitters".
    public let name: String
    /// The name under the app's icon on a home screen, where about 12 characters fit.
    public var shortName: String { givenShortName ?? name }
    /// The short name as given, if it was.
    let givenShortName: String?

    /// - Parameter shortName: The name itself when not given.
    public init(name: String, shortName: String? = nil) {
        self.name = name
        givenShortName = shortName
    }

    /// The name the shop has until its owner gives it one.
    public static let standard = ShopIdentity(name: "QuickCart")

    /// The most characters a name may have.
    static let nameLimit = 60
    /// The most characters a short name may have; launchers show about 12.
    static let shortNameLimit = 30
    /// About as many characters as a launcher shows under an icon.
    static let shortNameFits = 12

    /// What the owner is told at start when the name is longer than a home screen shows under
    /// the installed app's icon and no short name was given: `nil` otherwise.
    var shortNameHint: String? {
        guard givenShortName == nil, name.count > Self.shortNameFits else { return nil }
        return "the shop's name has \(name.count) characters, and a home screen shows about \(Self.shortNameFits) under an installed app's icon: "
            + "give a shorter one with --shop-short-name (QUICKCART_SHOP_SHORT_NAME)"
    }

    /// `text` without white space at either end, when it is a name: not empty, at most
    /// `limit` characters, no control characters.
    /// - Throws: A usage error naming the option or variable `name`.
    static func checked(_ text: String, _ name: String, limit: Int) throws -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw Configuration.UsageError(description: "\(name) must not be empty")
        }
        guard trimmed.count <= limit else {
            throw Configuration.UsageError(description: "\(name) must be at most \(limit) characters, not \(trimmed.count)")
        }
        guard !trimmed.unicodeScalars.contains(where: isHidden) else {
            throw Configuration.UsageError(description: "\(name) must not hold control or invisible characters")
        }
        return trimmed
    }

    /// Control characters, and invisible ones but the joiner that emoji sequences use.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: true
        case .format: scalar.value != 0x200D
        default: false
        }
    }
}
