import FoundationEssentials

/// The SVG icons of `Public/icons/`, read once and inlined into pages so they take the text
/// colour (`currentColor`) and cost no extra requests.
struct IconSet: Sendable {
    private let markup: [String: String]

    /// Reads every `.svg` file in `directory`.
    init(directory: String) throws {
        var markup: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".svg") {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            markup[String(file.dropLast(4))] = text.trimmingWhitespace()
        }
        self.markup = markup
    }

    /// The markup of the icon `name`, or an empty string when there is none.
    subscript(name: String) -> String {
        markup[name] ?? ""
    }
}
