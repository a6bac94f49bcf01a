import Foundation

/// The catalog a new shop opens with: `Catalog/demo.csv` beside `Views/` and `Public/`,
/// read by the same code as an operator's import.
enum DemoCatalog {
    /// Why the demo catalog could not be loaded.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// The demo catalog's products.
    /// - Parameter resourcesPath: The folder holding `Views/`, `Public/` and `Catalog/`; found as
    ///   the server finds it when `nil`.
    static func entries(resourcesPath: String?) throws -> [CatalogEntry] {
        let resources = try Resources.locate(configured: resourcesPath)
        let path = URL(fileURLWithPath: resources.views).deletingLastPathComponent().appendingPathComponent("Catalog/demo.csv").path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read the demo catalog \(path)")
        }
        let context = CatalogFile.Context(hasMediaFile: { _ in false }, knownIcons: nil)
        switch CatalogFile.read(Array(data), context: context) {
        case .success(let rows):
            return rows.map { $0.entry(image: nil) }
        case .failure(let failure):
            throw LoadError(description: "the demo catalog \(path) is not valid:\n\(failure)")
        }
    }
}

extension CatalogFile.Row {
    /// The row as an import stores it, with its photo as processed.
    func entry(image: ProductImage?) -> CatalogEntry {
        CatalogEntry(
            slug: slug, name: name, summary: summary, category: category, price: price, icon: icon,
            isFeatured: isFeatured, isActive: isActive, image: image
        )
    }
}
