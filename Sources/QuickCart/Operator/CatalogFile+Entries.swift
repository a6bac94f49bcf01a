extension CatalogFile {
    /// The icon of a product in a category none of whose products names one.
    static let fallbackIcon = "cart"

    /// The rows as an import stores them, with their processed photos (by slug: a file's slugs
    /// are unique, where its lines are not, a minified JSON file's being all on line 1).
    ///
    /// A row without an icon keeps its product's stored icon; a new product gets its
    /// category's icon (the first one named in the file, else stored), else ``fallbackIcon``.
    static func entries(_ rows: [Row], images: [String: ProductImage], stored: [Product]) -> [CatalogEntry] {
        let storedBySlug = Dictionary(stored.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        var categoryIcons: [String: String] = [:]
        for row in rows {
            if let icon = row.icon, categoryIcons[row.category] == nil { categoryIcons[row.category] = icon }
        }
        for product in stored where categoryIcons[product.category] == nil {
            categoryIcons[product.category] = product.icon
        }
        return rows.map { row in
            CatalogEntry(
                slug: row.slug, name: row.name, summary: row.summary, category: row.category, price: row.price,
                icon: row.icon ?? storedBySlug[row.slug]?.icon ?? categoryIcons[row.category] ?? fallbackIcon,
                isFeatured: row.isFeatured, isActive: row.isActive, image: images[row.slug]
            )
        }
    }
}
