import Foundation
import MicroHTTP
@testable import QuickCart
import Testing

/// The page script's modules as served: imports at the versions served, every module reached
/// from the entry, comments gone without moving a line or touching code.
@Suite("Script modules") struct ScriptModulesTests {
    static let publicFolder = TestShop.repositoryRoot + "/Public"

    /// The relative specifiers `text` imports, with the `v` each carries (`nil` for none).
    static func imports(of text: String) -> [(target: String, version: String?)] {
        text.matches(of: /(?:from|import)\s*\(?\s*['"](?<target>\.\.?\/[^'"?]+)(?:\?v=(?<version>[0-9a-f]+))?['"]/).map {
            (String($0.output.target), $0.output.version.map(String.init))
        }
    }

    static func served(_ files: StaticFiles, _ path: String) throws -> String {
        let response = try files.response(for: Request(method: .get, path: "/static/" + path), path: path)
        guard case .shared(let body) = response.body else { return "" }
        return String(decoding: body.bytes, as: UTF8.self)
    }

    @Test("From the entry, every import names a served module at the version it is served with, and reaches every module")
    func everyImportIsVersionedAndTheGraphIsWhole() throws {
        let files = try StaticFiles(directory: Self.publicFolder, rewrite: ScriptModules.rewrite)
        var reached: Set<String> = []
        var queue = ["js/app.js"]
        while let path = queue.popLast() {
            guard reached.insert(path).inserted else { continue }
            for (target, version) in Self.imports(of: try Self.served(files, path)) {
                let resolved = try #require(ScriptModules.resolve(target, from: path))
                #expect(version != nil && version == files.version(of: resolved), "\(path) imports \(target) at v=\(version ?? "none"), served as v=\(files.version(of: resolved) ?? "no file")")
                queue.append(resolved)
            }
        }
        let modules = Set(files.paths.filter { $0.hasPrefix("js/") && $0.hasSuffix(".js") })
        #expect(reached == modules, "modules the entry does not reach: \(modules.subtracting(reached).sorted())")
        #expect(modules.count > 1)
    }

    @Test("Changing one module gives it, and every module importing it up to the entry, a new version")
    func aChangeReachesTheEntrysVersion() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("public-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: Self.publicFolder, toPath: copy.path)
        let before = try StaticFiles(directory: copy.path, rewrite: ScriptModules.rewrite)
        let page = copy.appendingPathComponent("js/page.js")
        try (String(contentsOf: page, encoding: .utf8) + "\nexport const changed = true;\n").write(to: page, atomically: true, encoding: .utf8)
        let after = try StaticFiles(directory: copy.path, rewrite: ScriptModules.rewrite)
        for path in ["js/page.js", "js/forms.js", "js/app.js"] {
            #expect(before.version(of: path) != after.version(of: path), "\(path) kept its version though page.js changed")
        }
        #expect(before.version(of: "css/app.css") == after.version(of: "css/app.css"))
    }

    @Test("Each kind of import of a served file gets its version; others stay as written")
    func importSpecifiersAreRewritten() {
        let versions = ["js/a.js": "111", "b.js": "222"]
        let text = """
        import { start } from './a.js';
        import "./a.js";
        import('./a.js').then(() => {});
        export { x } from '../b.js';
        import { y } from './missing.js';
        import { z } from 'https://example.com/z.js';
        """
        let rewritten = ScriptModules.versionedImports(Array(text.utf8), of: "js/main.js") { versions[$0] }
        #expect(String(decoding: rewritten, as: UTF8.self) == """
        import { start } from './a.js?v=111';
        import "./a.js?v=111";
        import('./a.js?v=111').then(() => {});
        export { x } from '../b.js?v=222';
        import { y } from './missing.js';
        import { z } from 'https://example.com/z.js';
        """)
        #expect(ScriptModules.resolve("../../x.js", from: "js/main.js") == nil)
        for other in ["css/app.css", "sw.js"] {
            let content = Array("// kept\nimport './a.js';\n".utf8)
            #expect(ScriptModules.rewrite(path: other, content: content) { _ in "1" } == content, "\(other) should be served as it is")
        }
    }

    @Test("Comments go, each line stays on its line, and a // inside a string, expression or template stays")
    func commentsGoWithoutTouchingCode() {
        let text = """
        // A comment line.
          /** One-line doc. */
        const a = 1; // why
        const url = 'http://x'; // kept: a quote comes first
        const half = b / 2; // kept: a slash comes first
        const t = `line one
        // inside the template
        end`; // after a template
        const c = 3;
        """
        let stripped = ScriptModules.withoutComments(Array(text.utf8))
        #expect(String(decoding: stripped, as: UTF8.self) == """


        const a = 1;
        const url = 'http://x'; // kept: a quote comes first
        const half = b / 2; // kept: a slash comes first
        const t = `line one
        // inside the template
        end`; // after a template
        const c = 3;
        """)
    }
}
