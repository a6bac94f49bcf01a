import CZlib
import Foundation
import HTTPTesting
@testable import MicroHTTP
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
            try Self.bigStyleSheet.write(to: publicFolder.appendingPathComponent("css/big.css"), atomically: true, encoding: .utf8)
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: publicFolder.appendingPathComponent("noise.png"))
            try "top secret".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: publicFolder.appendingPathComponent("out.txt").path, withDestinationPath: root.appendingPathComponent("secret.txt").path)
            try FileManager.default.createSymbolicLink(atPath: publicFolder.appendingPathComponent("in.css").path, withDestinationPath: publicFolder.appendingPathComponent("css/app.css").path)
            files = try StaticFiles(directory: publicFolder.path, headers: ["X-Content-Type-Options": "nosniff"])
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        /// Twelve kilobytes of CSS, which gzip shrinks to a fraction.
        static let bigStyleSheet = (0..<200).map { ".rule-\($0) { margin: \($0 % 7)px; color: #333; }\n" }.joined()

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
        #expect(again.header("Content-Length") == "6", "a 304's length is the 200's (RFC 9110 §8.6), not 0")
        #expect(try client.get("/static/css/app.css", headers: [("If-None-Match", "\"stale\",  \t\(etag) ")]).status == 304)
        #expect(try client.get("/static/css/app.css", headers: [("If-None-Match", "\"stale\"")]).status == 200)
        // Weak comparison, as If-None-Match asks: a cache may keep the tag as W/"…".
        #expect(try client.get("/static/css/app.css", headers: [("If-None-Match", "W/\(etag)")]).status == 304)
        #expect(try client.get("/static/css/app.css", headers: [("If-None-Match", "W/\"stale\", W/\(etag)")]).status == 304)
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

    // MARK: - Compression and caching

    /// `bytes`, a gzip member, inflated by zlib; `nil` if they are not one.
    private static func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits + 16: expect a gzip header and trailer.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: 1 << 20)
        let result = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END, stream.avail_in == 0 else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Each check runs against the server's own answers and against the responder's.
    @Test(arguments: [true, false])
    func compressedWhenAcceptedWithVaryAndAnETagPerEncoding(servedByServer: Bool) throws {
        let fixture = try Fixture()
        let live = try LiveServer(fixture.router(), serving: servedByServer ? fixture.files : nil)
        let client = try live.client()
        let original = Array(Fixture.bigStyleSheet.utf8)

        let compressed = try client.get("/static/css/big.css", headers: [("Accept-Encoding", "gzip, deflate, br, zstd")])
        #expect(compressed.status == 200)
        #expect(compressed.header("Content-Encoding") == "gzip")
        #expect(compressed.header("Vary") == "Accept-Encoding")
        #expect(compressed.header("Content-Type") == "text/css; charset=utf-8")
        #expect(compressed.body.count < original.count / 4, "\(compressed.body.count) bytes")
        #expect(Self.gunzip(compressed.body) == original)

        let plain = try client.get("/static/css/big.css")
        #expect(plain.status == 200 && plain.body == original)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("Vary") == "Accept-Encoding", "every answer of a file with two encodings varies")
        let gzipTag = try #require(compressed.header("ETag"))
        let plainTag = try #require(plain.header("ETag"))
        #expect(gzipTag != plainTag)

        for refusal in ["gzip;q=0", "gzip; q=0.000, br", "identity", "*;q=0", "br, *;q=0.5, gzip;Q=0"] {
            let refused = try client.get("/static/css/big.css", headers: [("Accept-Encoding", refusal)])
            #expect(refused.header("Content-Encoding") == nil && refused.body == original, "\(refusal)")
        }
        #expect(try client.get("/static/css/big.css", headers: [("Accept-Encoding", "br;q=1, *;q=0.1")]).header("Content-Encoding") == "gzip")

        // 304 for either encoding, when the tag is the one of the encoding the client takes.
        let gzipRevalidated = try client.get("/static/css/big.css", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", gzipTag)])
        #expect(gzipRevalidated.status == 304)
        #expect(gzipRevalidated.header("ETag") == gzipTag && gzipRevalidated.header("Vary") == "Accept-Encoding")
        #expect(gzipRevalidated.header("Content-Length") == String(compressed.body.count))
        #expect(try client.get("/static/css/big.css", headers: [("If-None-Match", plainTag)]).status == 304)
        let switched = try client.get("/static/css/big.css", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", plainTag)])
        #expect(switched.status == 200 && switched.header("Content-Encoding") == "gzip")

        // A file gzip cannot shrink is sent as it is, without Vary.
        let tiny = try client.get("/static/css/app.css", headers: [("Accept-Encoding", "gzip")])
        #expect(tiny.text == "body{}" && tiny.header("Content-Encoding") == nil && tiny.header("Vary") == nil)
        let noise = try client.get("/static/noise.png", headers: [("Accept-Encoding", "gzip")])
        #expect(noise.body.count == 4096 && noise.header("Content-Encoding") == nil)
    }

    @Test(arguments: [true, false])
    func versionedAddressesAreImmutable(servedByServer: Bool) throws {
        let fixture = try Fixture()
        let live = try LiveServer(fixture.router(), serving: servedByServer ? fixture.files : nil)
        let client = try live.client()
        let version = try #require(fixture.files.version(of: "css/big.css"))
        #expect(version.count == 12)
        let immutable = "public, max-age=31536000, immutable"
        let versioned = try client.get("/static/css/big.css?v=\(version)", headers: [("Accept-Encoding", "gzip")])
        #expect(versioned.header("Cache-Control") == immutable)
        #expect(versioned.header("Content-Encoding") == "gzip")
        let tag = try #require(versioned.header("ETag"))
        let revalidated = try client.get("/static/css/big.css?v=\(version)", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
        #expect(revalidated.status == 304 && revalidated.header("Cache-Control") == immutable)
        #expect(try client.get("/static/css/big.css?v=\(version)").header("Cache-Control") == immutable)
        #expect(try client.get("/static/css/big.css").header("Cache-Control") == "public, max-age=300")
        #expect(try client.get("/static/css/big.css?v=0123456789ab").header("Cache-Control") == "public, max-age=300", "a stale version is not this content")
    }
}

@Suite struct AcceptEncodingTests {
    @Test(arguments: [
        ("gzip", true), ("GZIP", true), ("x-gzip", true), ("gzip, deflate, br, zstd", true), ("deflate, gzip;q=1.0, *;q=0.5", true),
        ("*", true), ("br, *", true), ("gzip;q=0.001", true), ("gzip ; q=0.5", true), ("gzip;level=1;q=0.2", true),
        ("", false), ("br", false), ("identity", false), ("gzip;q=0", false), ("gzip;q=0.", false), ("gzip;q=0.000", false),
        ("*;q=0", false), ("gzip;q=0, *", false), ("br, *;q=1, gzip;q=0", false), ("gzipx", false), ("xgzip", false),
        (",,, ,", false), ("gzip;q", true), ("gzip;q=abc", true), ("gzip;Q=0", false), ("gzip;q=0 , br", false),
        ("x\rgzip", false), ("GZ\u{09}P", false),
    ])
    func readsWhetherGzipIsAccepted(field: String, accepts: Bool) {
        #expect(AcceptEncoding.acceptsGzip(field) == accepts, "\(field)")
    }
}
