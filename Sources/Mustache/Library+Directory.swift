// FoundationEssentials is confined to this file: it is only needed to read files.
internal import FoundationEssentials

extension MustacheLibrary {
    /// Loads and parses every template file in a folder and its subfolders.
    ///
    /// A template's name is its path relative to `directory`, with `/`
    /// separators and without the extension, so `Views/partials/tabbar.mustache`
    /// loaded from `Views` is `partials/tabbar` (and `{{>partials/tabbar}}` includes it).
    ///
    /// ```swift
    /// let library = try MustacheLibrary(directory: "Views")
    /// let html = library.render("layout", with: viewModel)
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The folder to search.
    ///   - fileExtension: The extension of template files, without the dot.
    /// - Throws: The file system's error when the folder or a file cannot be
    ///   read (or a file is not UTF-8), or ``MustacheParseError`` for the first
    ///   malformed template in name order, named as above.
    public init(directory: String, fileExtension: String = "mustache") throws {
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let suffix = "." + fileExtension
        var templates: [String: String] = [:]
        let fileManager = FileManager.default
        for relativePath in try fileManager.subpathsOfDirectory(atPath: root.path) where relativePath.hasSuffix(suffix) {
            let file = root.appendingPathComponent(relativePath)
            // fileExists follows symlinks, so linked-in templates load too; folders named *.mustache do not.
            var isDirectory = false
            guard fileManager.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory else { continue }
            templates[String(relativePath.dropLast(suffix.count))] = try String(contentsOf: file, encoding: .utf8)
        }
        try self.init(templates: templates)
    }
}
