import Foundation
import Mustache
import Testing

struct LibraryTests {
    /// A fresh folder of template files, removed when `body` returns.
    private func withTemplateFolder(_ files: [String: String], _ body: (String) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mustache-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, contents) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: file, atomically: true, encoding: .utf8)
        }
        try body(root.path)
    }

    @Test func loadsFolderAndSubfoldersNamedByRelativePath() throws {
        try withTemplateFolder([
            "layout.mustache": "<body>\n  {{>partials/tabbar}}\n  <main>{{title}}</main>\n</body>\n",
            "partials/tabbar.mustache": "<nav>\n{{#tabs}}\n  <a>{{.}}</a>\n{{/tabs}}\n</nav>\n",
            "partials/deep/icon.mustache": "<i>{{name}}</i>",
            "notes.txt": "not a template {{",
            "partials/readme.md": "ignored",
        ]) { folder in
            let library = try MustacheLibrary(directory: folder)
            #expect(library.names == ["layout", "partials/deep/icon", "partials/tabbar"])
            #expect(library["partials/deep/icon"]?.name == "partials/deep/icon")
            #expect(library["notes"] == nil)

            let output = library.render("layout", with: ["title": "Cart", "tabs": ["Home", "Shop"]] as MustacheValue)
            #expect(output == "<body>\n  <nav>\n    <a>Home</a>\n    <a>Shop</a>\n  </nav>\n  <main>Cart</main>\n</body>\n")
        }
    }

    @Test func customFileExtension() throws {
        try withTemplateFolder(["page.html": "<p>{{x}}</p>", "page.mustache": "other"]) { folder in
            let library = try MustacheLibrary(directory: folder, fileExtension: "html")
            #expect(library.names == ["page"])
            #expect(library.render("page", with: ["x": 1] as MustacheValue) == "<p>1</p>")
        }
    }

    @Test func parseErrorInAFileNamesIt() throws {
        try withTemplateFolder(["ok.mustache": "{{a}}", "partials/broken.mustache": "line\n  {{#open}}\n"]) { folder in
            let error = try #require(throws: MustacheParseError.self) { try MustacheLibrary(directory: folder) }
            #expect(error.templateName == "partials/broken")
            #expect(error.line == 2)
            #expect(error.column == 3)
        }
    }

    @Test func missingFolderThrows() {
        #expect(throws: (any Error).self) {
            try MustacheLibrary(directory: "/nonexistent/mustache-\(UUID().uuidString)")
        }
    }

    @Test func registerSubscriptAndRender() throws {
        var library = MustacheLibrary()
        #expect(library.names.isEmpty)
        #expect(library["greeting"] == nil)

        library.register(try MustacheTemplate(string: "Hello, {{>name}}!", name: "greeting"), named: "greeting")
        library.register(try MustacheTemplate(string: "{{who}}"), named: "name")
        #expect(library["greeting"]?.name == "greeting")
        #expect(library.render("greeting", with: ["who": "<World>"] as MustacheValue) == "Hello, &lt;World&gt;!")

        library.register(try MustacheTemplate(string: "Bye, {{>name}}."), named: "greeting")
        #expect(library.render("greeting", with: ["who": "Joe"]) == "Bye, Joe.")
    }

    @Test func renderIntoBuffer() throws {
        let library = try MustacheLibrary(templates: ["page": "<b>{{n}}</b>"])
        var buffer = Array("> ".utf8)
        #expect(library.render("page", with: ["n": 5] as MustacheValue, into: &buffer))
        #expect(String(decoding: buffer, as: UTF8.self) == "> <b>5</b>")
        #expect(library.render("page", with: ["n": 5] as MustacheValue) == "<b>5</b>")
    }

    @Test func missingTemplateRendersNilAndLeavesBufferAlone() {
        let library = MustacheLibrary()
        var buffer = Array("keep".utf8)
        #expect(library.render("nope", with: [:] as MustacheValue) == nil)
        #expect(!library.render("nope", with: [:] as MustacheValue, into: &buffer))
        #expect(buffer == Array("keep".utf8))
    }
}
