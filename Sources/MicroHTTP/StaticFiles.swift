import CGnuTLS
import CZlib
import FoundationEssentials

/// Serves the files of one folder, read once at start, with `ETag`, `304 Not Modified`,
/// `Cache-Control` and gzip.
///
/// Only regular files found under the folder when it is loaded can ever be served: a request
/// path is looked up in that table, never joined onto the file system, so `..`, encoded
/// slashes and absolute paths find nothing. Symbolic links are followed only when they end
/// inside the folder.
///
/// Text files (CSS, JavaScript, HTML, SVG, JSON, plain text, icons) are compressed once at
/// start with gzip at its best level, and the compressed copy is kept when it is smaller. Such
/// a file is answered by `Accept-Encoding` (gzip unless refused with `q=0`), with
/// `Content-Encoding: gzip`, `Vary: Accept-Encoding` on every answer, and an entity tag of its
/// own, so `If-None-Match` works for either. An address whose `v` query parameter is the file's
/// ``version(of:)`` is for this content only, and is cached for a year as `immutable`; any
/// other address gets the shorter `cacheControl`.
///
/// A ``Rewrite`` may change a file's content as it is loaded, knowing the versions of the
/// others (for example to point a file's references at their versioned addresses). A file's
/// version is that of its rewritten content, so it changes whenever a version it wrote in does.
/// ```swift
/// let assets = try StaticFiles(directory: "Public")
/// router.get("/static/*path") { request in
///     try assets.response(for: request, path: request.routeParameters["path"] ?? "")
/// }
/// ```
public struct StaticFiles: Sendable {
    /// One file and every answer to it, built once. A class: the static fast path passes a
    /// file along several times per request, and copying a struct of eight answers would
    /// retain and release each of their strings, arrays and buffers every time.
    final class File: Sendable {
        /// The answers for one encoding of the file. Each answer has bytes of its own (views of
        /// the same memory), so the response the server prepares around them stays prepared.
        struct Representation: Sendable {
            let etag: String
            let ok: Answer
            let notModified: Answer
            let okVersioned: Answer
            let notModifiedVersioned: Answer

            /// Builds the four answers of `bytes`, sent with `encoding` (`nil`: as they are).
            /// - Parameters:
            ///   - cacheControl: For plain addresses; `versionedCacheControl`: for versioned ones.
            ///   - headers: Every other field, sent with each answer.
            init(_ bytes: [UInt8], etag: String, encoding: String?, contentType: String,
                 cacheControl: String, versionedCacheControl: String, headers: HTTPHeaders) {
                func answers(cacheControl: String, body: SharedBytes) -> (ok: Answer, notModified: Answer) {
                    var notModifiedHeaders: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
                    var okHeaders = notModifiedHeaders
                    if let encoding { okHeaders.add("Content-Encoding", encoding) }
                    okHeaders.add("Content-Type", contentType)
                    for field in headers {
                        notModifiedHeaders.add(field.name, field.value)
                        okHeaders.add(field.name, field.value)
                    }
                    return (Answer(status: .ok, headers: okHeaders, body: body),
                            Answer(status: .notModified, headers: notModifiedHeaders, body: SharedBytes(sameBytesAs: body)))
                }
                let body = SharedBytes(bytes)
                let plain = answers(cacheControl: cacheControl, body: body)
                let versioned = answers(cacheControl: versionedCacheControl, body: SharedBytes(sameBytesAs: body))
                self.etag = etag
                (ok, notModified) = plain
                (okVersioned, notModifiedVersioned) = versioned
            }
        }

        /// One answer's parts. Kept apart rather than as a ``Response``, whose body enum
        /// stores its reference with tag bits that leak checkers cannot follow.
        struct Answer: Sendable {
            let status: HTTPStatus
            let headers: HTTPHeaders
            let body: SharedBytes

            var response: Response { Response(status: status, headers: headers, body: .shared(body)) }
        }

        let identity: Representation
        let gzip: Representation?
        /// The `v` query value that marks an address for this content only.
        let version: String

        init(identity: Representation, gzip: Representation?, version: String) {
            self.identity = identity
            self.gzip = gzip
            self.version = version
        }

        /// The answer to a `GET` or `HEAD` whose `If-None-Match` is `tags`.
        /// - Parameters:
        ///   - acceptsGzip: Whether the client takes gzip.
        ///   - versioned: Whether the address carries the file's current version.
        func answer(ifNoneMatch tags: String?, acceptsGzip: Bool, versioned: Bool) -> Response {
            let representation = acceptsGzip ? gzip ?? identity : identity
            if let tags, Self.matches(tags, representation.etag) {
                return (versioned ? representation.notModifiedVersioned : representation.notModified).response
            }
            return (versioned ? representation.okVersioned : representation.ok).response
        }

        /// `If-None-Match` compares weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
        private static func matches(_ tags: String, _ etag: String) -> Bool {
            tags == etag || tags == "*" || tags.split(separator: ",").contains { tag in
                let tag = tag.trimmingSpaces
                return tag == etag || tag.hasPrefix("W/") && tag.dropFirst(2) == etag
            }
        }
    }

    private let files: [String: File]

    /// Rewrites the content of the file at `path` (relative, e.g. `js/app.js`) once, at load.
    /// `version` gives the ``version(of:)`` of another file by its relative path: `nil` when
    /// there is no such file, or when it is the file being rewritten or one rewriting now (a
    /// cycle of references), whose version cannot be known yet.
    public typealias Rewrite = (_ path: String, _ content: [UInt8], _ version: (String) -> String?) -> [UInt8]

    /// Loads every regular file below `directory`, compressing text files.
    /// - Parameters:
    ///   - directory: The folder to serve.
    ///   - cacheControl: The `Cache-Control` value sent with each file at an address without
    ///     its current version. Browsers revalidate with `If-None-Match` after it expires and
    ///     get 304 while the file is unchanged.
    ///   - versionedCacheControl: The `Cache-Control` value at an address with `v` set to the
    ///     file's current ``version(of:)``, whose content never changes.
    ///   - headers: More fields for every answer, such as security headers, when the server
    ///     answers files itself (see ``Server/init(configuration:responder:serving:at:)``).
    ///   - rewrite: Changes each file's content as it is loaded (see ``Rewrite``).
    /// - Throws: When the folder cannot be read.
    public init(
        directory: String,
        cacheControl: String = "public, max-age=300",
        versionedCacheControl: String = "public, max-age=31536000, immutable",
        headers: HTTPHeaders = HTTPHeaders(),
        rewrite: Rewrite? = nil
    ) throws {
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().standardizedFileURL.path
        var contents: [String: [UInt8]] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: root) {
            let real = URL(fileURLWithPath: root).appendingPathComponent(relative).resolvingSymlinksInPath().path
            var isDirectory = false
            guard real.hasPrefix(root + "/"),
                  FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), !isDirectory,
                  let data = FileManager.default.contents(atPath: real) else { continue }
            contents[relative] = [UInt8](data)
        }
        var files: [String: File] = [:]
        var rewriting: Set<String> = []
        // A file is loaded before any file whose rewrite asks for its version.
        func load(_ relative: String) -> File? {
            if let file = files[relative] { return file }
            guard let original = contents[relative], !rewriting.contains(relative) else { return nil }
            rewriting.insert(relative)
            let bytes = rewrite.map { $0(relative, original) { load($0)?.version } } ?? original
            rewriting.remove(relative)
            let file = Self.file(bytes, at: relative, cacheControl: cacheControl, versionedCacheControl: versionedCacheControl, headers: headers)
            files[relative] = file
            return file
        }
        for relative in contents.keys.sorted() { _ = load(relative) }
        self.files = files
    }

    /// The answers to one file's `bytes`, found at `relative`.
    private static func file(
        _ bytes: [UInt8], at relative: String, cacheControl: String, versionedCacheControl: String, headers: HTTPHeaders
    ) -> File {
        let contentType = Self.contentType(for: relative)
        let hash = Self.hash(of: bytes)
        let compressed = Self.isCompressible(contentType) ? Self.gzip(bytes).flatMap { $0.count < bytes.count ? $0 : nil } : nil
        // Vary on every answer of a file that has two encodings, plain ones included, so
        // that a cache never hands the compressed copy to a client that did not ask for it.
        var common = headers
        if compressed != nil { common.add("Vary", "Accept-Encoding") }
        func representation(_ bytes: [UInt8], etag: String, encoding: String?) -> File.Representation {
            File.Representation(bytes, etag: etag, encoding: encoding, contentType: contentType,
                                cacheControl: cacheControl, versionedCacheControl: versionedCacheControl, headers: common)
        }
        return File(
            identity: representation(bytes, etag: "\"" + hash + "\"", encoding: nil),
            gzip: compressed.map { representation($0, etag: "\"" + hash + "-gzip\"", encoding: "gzip") },
            version: String(hash.prefix(12))
        )
    }

    /// The relative paths of every file served, e.g. `css/app.css`.
    public var paths: [String] { files.keys.sorted() }

    /// The entity tag of the file at `path` as sent uncompressed.
    public func etag(of path: String) -> String? {
        files[path]?.identity.etag
    }

    /// The version of the file at `path`, for cache-busting addresses: `/static/PATH?v=VERSION`
    /// is cached as `immutable`. It is the first 12 hexadecimal digits of its ``etag(of:)``.
    public func version(of path: String) -> String? {
        files[path]?.version
    }

    /// Answers a `GET` or `HEAD` for the file at `path` (relative to the folder).
    /// - Returns: 200 with the file (compressed when the client's `Accept-Encoding` allows),
    ///   or 304 when the client's `If-None-Match` names the current version.
    /// - Throws: ``HTTPError`` 404 when no such file is served.
    public func response(for request: Request, path: String) throws -> Response {
        guard let file = files[path] else {
            throw HTTPError(.notFound, "There is no file at this address.", reason: .notFound)
        }
        return file.answer(
            ifNoneMatch: request.headers["If-None-Match"],
            acceptsGzip: request.headers["Accept-Encoding"].map(AcceptEncoding.acceptsGzip) ?? false,
            versioned: request.query["v"] == file.version
        )
    }

    /// The file at `path`, if it is served.
    func file(at path: Substring) -> File? {
        files[String(path)]
    }

    // MARK: - Helpers

    private static func contentType(for path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "txt": "text/plain; charset=utf-8"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }

    /// 16 hexadecimal digits of the content's SHA-256, for entity tags that are stable across
    /// restarts. GnuTLS's digest, not a loop in Swift: every file is hashed at every start, and
    /// a byte-at-a-time hash was a fifth of a debug build's start-up.
    private static func hash(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let result = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBytes { gnutls_hash_fast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, $0.baseAddress) }
        }
        precondition(result == 0, "GnuTLS could not compute a SHA-256 (error \(result))")
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(8).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    /// Types worth compressing: text, and formats that are text underneath.
    private static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("image/svg+xml") || contentType.hasPrefix("image/x-icon")
            || contentType.hasPrefix("application/json") || contentType.hasPrefix("application/manifest+json")
    }

    /// `bytes` as one gzip member at zlib's best compression; `nil` if zlib fails.
    static func gzip(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: czlib_gzip_bound(bytes.count))
        let written = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { output in
                czlib_gzip(input.baseAddress, input.count, output.baseAddress, output.count, level)
            }
        }
        guard written > 0 else { return nil }
        output.removeLast(output.count - written)
        return output
    }
}

private extension Substring {
    /// Without the spaces and tabs around it (one item of a header's list).
    var trimmingSpaces: Substring {
        guard let start = firstIndex(where: { $0 != " " && $0 != "\t" }),
              let end = lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return self[start...end]
    }
}
