/// A product of the catalog, as `GET /api/v1/catalog` lists it.
public struct Product: Hashable, Sendable, Codable, Identifiable {
    /// The product's id, a string (`"12"`).
    public let id: String
    /// Its key in the web shop's addresses and catalog files (`trail-running-shoes`).
    public let slug: String
    /// The name shoppers see.
    public let name: String
    /// One line about it (may be empty).
    public let summary: String
    /// The category Home and Search list it under.
    public let category: String
    /// The unit price.
    public let price: Money
    /// Whether Home shows it among the featured products.
    public let featured: Bool
    /// Whether it is for sale now; a line of a product no longer for sale stays in the cart
    /// but does not count and cannot be checked out.
    public let available: Bool
    /// Its photo's thumbnail, if it has one.
    public let image: ProductImage?
}

/// A product photo's thumbnail.
public struct ProductImage: Hashable, Sendable, Codable {
    /// The address of the image, relative to the shop (`/media/…-320.webp`); resolve it with
    /// ``QuickCartClient/resolve(_:)``.
    public let url: String
    /// Its width in pixels.
    public let width: Int
    /// Its height in pixels.
    public let height: Int
}

/// What a search found.
public struct SearchResult: Hashable, Sendable, Codable {
    /// The query as the server read it.
    public let query: String
    /// The products found, best first.
    public let products: [Product]
}
