import Foundation
import HTTPTesting
import MicroHTTP
import Synchronization
import Testing

@Suite struct StaticFilesTests {
    /// A public folder with a file, a nested file, a link that stays inside and one that
    /// points out, next to a secret that must never be served.
    final class Fixture {
        let root: URL
        let files: StaticFiles

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
            let publicFolder = root.appendingPathComponent("Public")
            try FileManager.default.createDirectory(at: publicFolder.appendingPathComponent("css"), withIntermediateDirectories: true)
            try "body{}".write(to: publicFolder.appendingPathComponent("css/app.css"), atomically: true, encoding: .utf8)
            try "console.log(1)".write(to: publicFolder.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
            try "top secret".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: publicFolder.appendingPathComponent("out.txt").path, withDestinationPath: root.appendingPathComponent("secret.txt").path)
            try FileManager.default.createSymbolicLink(atPath: publicFolder.appendingPathComponent("in.css").path, withDestinationPath: publicFolder.appendingPathComponent("css/app.css").path)
            files = try StaticFiles(directory: publicFolder.path, headers: ["X-Content-Type-Options": "nosniff"])
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        func router() -> Router {
            var router = Router()
            let files = files
            router.get("/static/*path") { request in
                try files.response(for: request, path: request.routeParameters["path"] ?? "")
            }
            return router
        }
    }

    @Test func servesFilesWithTypeETagAndCacheControl() throws {
        let fixture = try Fixture()
        let live = try LiveServer(fixture.router())
        let client = try live.client()
        let css = try client.get("/static/css/app.css")
        #expect(css.status == 200)
        #expect(css.text == "body{}")
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("Cache-Control") != nil)
        let etag = try #require(css.header("ETag"))
        let again = try client.get("/static/css/app.css", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(try client.get("/static/css/app.css", headers: [("If-None-Match", "\"stale\",  \t\(etag) ")]).status == 304)
        #expect(try client.get("/static/css/app.css", headers: [("If-None-Match", "\"stale\"")]).status == 200)
        #expect(try client.get("/static/app.js").header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(try client.get("/static/in.css").text == "body{}")
    }

    @Test(arguments: [
        "/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/css/..%2f..%2fsecret.txt",
        "/static/css%2f..%2f..%2fsecret.txt", "/static//etc/passwd", "/static/%2fetc%2fpasswd",
        "/static/out.txt", "/static/css", "/static/./app.js", "/static/css/../app.js", "/static/..%5csecret.txt",
    ])
    func neverServesAnythingOutsideTheFolder(target: String) throws {
        let fixture = try Fixture()
        for servedByServer in [false, true] {
            let live = try LiveServer(fixture.router(), serving: servedByServer ? fixture.files : nil)
            let response = try live.client().request("GET", target)
            #expect([400, 404].contains(response.status), "\(target) answered \(response.status)")
            #expect(!response.text.contains("top secret"))
            #expect(!response.text.contains("root:"))
        }
    }

    @Test func theServerAnswersFilesItselfAndLeavesEverythingElseToTheResponder() throws {
        let fixture = try Fixture()
        let responderCalls = Mutex(0)
        var router = Router()
        let files = fixture.files
        router.get("/static/*path") { request in
            responderCalls.withLock { $0 += 1 }
            return try files.response(for: request, path: request.routeParameters["path"] ?? "")
        }
        let live = try LiveServer(router, serving: files)
        let client = try live.client()

        let css = try client.get("/static/css/app.css?v=1")
        #expect(css.status == 200 && css.text == "body{}")
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("X-Content-Type-Options") == "nosniff", "the fields the files were loaded with come along")
        let etag = try #require(css.header("ETag"))
        let revalidated = try client.get("/static/css/app.css", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        #expect(revalidated.header("X-Content-Type-Options") == "nosniff")
        #expect(try client.request("HEAD", "/static/app.js").status == 200)
        #expect(responderCalls.withLock { $0 } == 0, "files are answered without the responder")

        // What could need a refusal or an error page goes to the responder.
        // (A fresh connection each: some refusals close theirs.)
        #expect(try live.client().get("/static/missing.css").status == 404)
        #expect(try live.client().request("POST", "/static/app.js", body: Array("a=b".utf8)).status == 405)
        #expect(try live.client().get("/static/css/app.css?q=%C3%A9").status == 200)
        #expect(try live.client().get("/static/css/app.css?q=%FF").status == 400)
        #expect(try live.client().request("GET", "/static/app.js", body: Array("abc".utf8)).status == 200)
        #expect(responderCalls.withLock { $0 } == 3, "the missing file, the non-ASCII query and the request with a body reached the route")
    }
}
