/// What an import changes, by slug: what `--dry-run` prints and an import reports.
struct CatalogChanges: Equatable {
    /// Slugs new to the catalog.
    var added: [String] = []
    /// Slugs whose product is there and differs in some field (other than only being made inactive).
    var changed: [String] = []
    /// Slugs of products for sale now that will not be: left out of the file, or marked inactive in it.
    var deactivated: [String] = []

    /// Compares the stored products with the entries an import would write.
    init(from current: [Product], to entries: [CatalogEntry]) {
        let stored = Dictionary(current.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        let listed = Set(entries.map(\.slug))
        for entry in entries {
            guard let product = stored[entry.slug] else {
                added.append(entry.slug)
                continue
            }
            if product.isActive, !entry.isActive {
                deactivated.append(entry.slug)
            }
            let same = product.name == entry.name && product.summary == entry.summary && product.category == entry.category
                && product.price == entry.price && product.icon == entry.icon && product.isFeatured == entry.isFeatured
                && product.image == entry.image
            if !same || (!product.isActive && entry.isActive) { changed.append(entry.slug) }
        }
        deactivated += current.filter { $0.isActive && !listed.contains($0.slug) }.map(\.slug)
    }

    var isEmpty: Bool { added.isEmpty && changed.isEmpty && deactivated.isEmpty }

    /// One line per kind, e.g. `added 2: tent, stove`.
    var lines: [String] {
        guard !isEmpty else { return ["no changes"] }
        return [("added", added), ("changed", changed), ("deactivated", deactivated)].compactMap { label, slugs in
            slugs.isEmpty ? nil : "\(label) \(slugs.count): \(slugs.joined(separator: ", "))"
        }
    }
}
