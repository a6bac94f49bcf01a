import Foundation
import Mustache
import Testing

/// Every case of the official Mustache spec (lambdas excluded by design).
struct SpecTests {
    static let files = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]

    @Test func specDirectoryExists() throws {
        let directory = SpecFile.directory()
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
        try #require(
            exists && isDirectory.boolValue,
            "Mustache spec folder not found at \(directory.path); it is Tests/MustacheTests/Spec in the repository"
        )
    }

    @Test(arguments: files)
    func spec(_ file: String) throws {
        let spec: SpecFile
        do {
            spec = try SpecFile.load(file)
        } catch {
            Issue.record("Cannot load spec file \(file).json from \(SpecFile.directory().path): \(error)")
            return
        }
        try #require(!spec.tests.isEmpty, "\(file).json has no test cases")
        for test in spec.tests {
            let report = """
                \(file).json › \(test.name)
                  template: \(String(reflecting: test.template))
                  partials: \(String(reflecting: test.partials ?? [:]))
                  data:     \(test.data.value.jsonDescription)
                """
            do {
                let library = try MustacheLibrary(templates: test.partials ?? [:])
                let template = try MustacheTemplate(string: test.template, name: test.name)
                let actual = template.render(test.data.value, partials: library)
                #expect(
                    actual == test.expected,
                    "\(report)\n  expected: \(String(reflecting: test.expected))\n  actual:   \(String(reflecting: actual))"
                )
            } catch {
                Issue.record("\(report)\n  parse error: \(error)")
            }
        }
    }
}
