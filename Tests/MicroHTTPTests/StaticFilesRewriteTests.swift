import Foundation
@testable import MicroHTTP
import Testing

/// A rewrite changes what is served, sees the versions of the files it names, and the
/// version of a rewritten file follows the versions written into it.
@Suite struct StaticFilesRewriteTests {
    /// A folder with `files` (relative path → text), removed when the test ends.
    final class Folder {
        let path: String

        init(_ files: [String: String]) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("static-rewrite-\(UUID().uuidString)").path
            for (relative, text) in files {
                let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Replaces each `{name}` with `name@version`, or `name@?` when the version is unknown.
    static func pointAtVersions(_ path: String, _ content: [UInt8], _ version: (String) -> String?) -> [UInt8] {
        var text = String(decoding: content, as: UTF8.self)
        // Asks only for the versions it names: asking loads that file first.
        for name in ["a.txt", "b.txt", "c.txt", "missing.txt"] where text.contains("{\(name)}") {
            text = text.replacingOccurrences(of: "{\(name)}", with: "\(name)@\(version(name) ?? "?")")
        }
        return Array(text.utf8)
    }

    static func servedText(_ files: StaticFiles, _ path: String) throws -> String {
        let response = try files.response(for: Request(method: .get, path: "/" + path), path: path)
        guard case .shared(let body) = response.body else { return "" }
        return String(decoding: body.bytes, as: UTF8.self)
    }

    @Test func aRewrittenFileIsServedWithTheVersionsOfTheFilesItNames() throws {
        let folder = try Folder(["a.txt": "alpha", "b.txt": "uses {a.txt} and {missing.txt}"])
        let files = try StaticFiles(directory: folder.path, rewrite: Self.pointAtVersions)
        let a = try #require(files.version(of: "a.txt"))
        let served = try Self.servedText(files, "b.txt")
        #expect(served == "uses a.txt@\(a) and missing.txt@?")
        #expect(try Self.servedText(files, "a.txt") == "alpha")
    }

    @Test func anImportersVersionChangesWhenAnImportsDoesAndOnlyThen() throws {
        let folders = try ["one", "two", "one"].map { try Folder(["a.txt": $0, "b.txt": "{a.txt}", "c.txt": "{b.txt}"]) }
        let loaded = try folders.map { try StaticFiles(directory: $0.path, rewrite: Self.pointAtVersions) }
        let (before, after, same) = (loaded[0], loaded[1], loaded[2])
        for path in ["a.txt", "b.txt", "c.txt"] {
            #expect(before.version(of: path) != after.version(of: path), "\(path) should have a new version when a.txt changes")
            #expect(before.version(of: path) == same.version(of: path), "\(path) should keep its version when nothing changes")
        }
    }

    @Test func aCycleOfReferencesLoadsWithTheVersionItCannotKnowUnknown() throws {
        let folder = try Folder(["a.txt": "{b.txt}", "b.txt": "{a.txt}", "c.txt": "{c.txt}"])
        let files = try StaticFiles(directory: folder.path, rewrite: Self.pointAtVersions)
        // Loaded in path order: a.txt asks for b.txt, whose own rewrite finds a.txt still rewriting.
        let b = try #require(files.version(of: "b.txt"))
        #expect(try Self.servedText(files, "a.txt") == "b.txt@\(b)")
        #expect(try Self.servedText(files, "b.txt") == "a.txt@?")
        #expect(try Self.servedText(files, "c.txt") == "c.txt@?")
    }
}
