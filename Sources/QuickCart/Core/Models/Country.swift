/// A country a shop may deliver to: its ISO 3166-1 alpha-2 code (what forms post, what the
/// `autocomplete="country"` token fills in and what is stored) and its English name.
public struct Country: Sendable, Hashable {
    /// Two capital letters: `US`, `NO`.
    public let code: String
    /// The name shown in lists: `United States`, `Norway`.
    public let name: String

    /// Every country, by name.
    public static let all: [Country] = countryTable

    /// The country with `code` (any case), `nil` for a code that names none.
    public static func named(_ code: String) -> Country? {
        byCode[code.uppercased()]
    }

    private static let byCode = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
}
