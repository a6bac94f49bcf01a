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

    /// The spec folder: `MUSTACHE_SPEC_DIR` if set, else `../shared/spec/mustache`
    /// relative to the repository root this source file lives in.
    static func directory(sourceFile: String = #filePath) -> URL {
        if let override = ProcessInfo.processInfo.environment["MUSTACHE_SPEC_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // Resolve symlinks first: a scratch package may link this folder in from elsewhere.
        let repositoryRoot = URL(fileURLWithPath: sourceFile).resolvingSymlinksInPath()
            .deletingLastPathComponent()  // MustacheTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // repository root
        return repositoryRoot.appendingPathComponent("../shared/spec/mustache", isDirectory: true).standardizedFileURL
    }

    /// Loads `<directory>/<name>.json`.
    static func load(_ name: String) throws -> SpecFile {
        let url = directory().appendingPathComponent(name + ".json")
        return try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: url))
    }
}
