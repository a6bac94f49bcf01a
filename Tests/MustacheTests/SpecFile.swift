import Foundation
import Mustache

/// One file of the Mustache spec, e.g. `sections.json`.
struct SpecFile: Decodable {
    struct Case: Decodable {
        let name: String
        let desc: String
        let data: JSONValue
        let template: String
        let partials: [String: String]?
        let expected: String
    }

    let tests: [Case]

    /// The spec folder: `Spec/` beside this file, the copy of the official spec (MIT, its
    /// `LICENSE` alongside) that the repository carries.
    static func directory(sourceFile: String = #filePath) -> URL {
        // Resolve symlinks first: a scratch package may link this folder in from elsewhere.
        URL(fileURLWithPath: sourceFile).resolvingSymlinksInPath()
            .deletingLastPathComponent()
            .appendingPathComponent("Spec", isDirectory: true)
    }

    /// Loads `<directory>/<name>.json`.
    static func load(_ name: String) throws -> SpecFile {
        let url = directory().appendingPathComponent(name + ".json")
        return try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: url))
    }
}
