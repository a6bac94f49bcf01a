import FoundationEssentials

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
            return CatalogFile.entries(rows, images: [:], stored: [])
        case .failure(let failure):
            throw LoadError(description: "the demo catalog \(path) is not valid:\n\(failure)")
        }
    }
}
