/// Something the shop sells.
public struct Product: Hashable, Sendable, Identifiable {
    /// The catalog's id, stable across restarts (it is the database's primary key).
    public var id: Int64
    /// A URL-safe name, e.g. `trail-running-shoes`.
    public var slug: String
    public var name: String
    /// One line that says what it is.
    public var summary: String
    public var category: String
    public var price: Money
    /// The file name (without `.svg`) of its icon in `Public/icons/`.
    public var icon: String
    /// Whether Home shows it under "Featured".
    public var isFeatured: Bool

    /// Creates a product.
    public init(id: Int64, slug: String, name: String, summary: String, category: String, price: Money, icon: String, isFeatured: Bool) {
        self.id = id
        self.slug = slug
        self.name = name
        self.summary = summary
        self.category = category
        self.price = price
        self.icon = icon
        self.isFeatured = isFeatured
    }
}
