import Foundation

/// Serves the files of one folder, read once at start, with `ETag`, `304 Not Modified` and
/// `Cache-Control`.
///
/// Only regular files found under the folder when it is loaded can ever be served: a request
/// path is looked up in that table, never joined onto the file system, so `..`, encoded
/// slashes and absolute paths find nothing. Symbolic links are followed only when they end
/// inside the folder.
/// ```swift
/// let assets = try StaticFiles(directory: "Public")
/// router.get("/static/*path") { request in
///     try assets.response(for: request, path: request.routeParameters["path"] ?? "")
/// }
/// ```
public struct StaticFiles: Sendable {
    /// One file and its two answers' header fields, built once.
    struct File: Sendable {
        let bytes: SharedBytes
        /// The empty body of its 304 answers, shared too so that answer is prepared once.
        let notModified = SharedBytes([])
        let etag: String
        let headers: HTTPHeaders
        let notModifiedHeaders: HTTPHeaders

        /// The answer to a `GET` or `HEAD` whose `If-None-Match` is `tags`.
        func answer(ifNoneMatch tags: String?) -> Response {
            if let tags, tags == etag || tags == "*" || tags.split(separator: ",").contains(where: { $0.trimmingSpaces == etag }) {
                return Response(status: .notModified, headers: notModifiedHeaders, body: .shared(notModified))
            }
            return Response(status: .ok, headers: headers, body: .shared(bytes))
        }
    }

    private let files: [String: File]

    /// Loads every regular file below `directory`.
    /// - Parameters:
    ///   - directory: The folder to serve.
    ///   - cacheControl: The `Cache-Control` value sent with each file. Browsers revalidate
    ///     with `If-None-Match` after it expires and get 304 while the file is unchanged.
    ///   - headers: More fields for every answer, such as security headers, when the server
    ///     answers files itself (see ``Server/init(configuration:responder:serving:at:)``).
    /// - Throws: When the folder cannot be read.
    public init(directory: String, cacheControl: String = "public, max-age=300", headers: HTTPHeaders = HTTPHeaders()) throws {
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().standardizedFileURL.path
        var files: [String: File] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory])
        }
        while let relative = walker.nextObject() as? String {
            let real = URL(fileURLWithPath: root).appendingPathComponent(relative).resolvingSymlinksInPath().path
            var isDirectory: ObjCBool = false
            guard real.hasPrefix(root + "/"),
                  FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: real) else { continue }
            let bytes = [UInt8](data)
            let etag = Self.etag(of: bytes)
            var notModifiedHeaders: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
            var fileHeaders = notModifiedHeaders
            fileHeaders.add("Content-Type", Self.contentType(for: relative))
            for field in headers {
                notModifiedHeaders.add(field.name, field.value)
                fileHeaders.add(field.name, field.value)
            }
            files[relative] = File(bytes: SharedBytes(bytes), etag: etag, headers: fileHeaders, notModifiedHeaders: notModifiedHeaders)
        }
        self.files = files
    }

    /// The relative paths of every file served, e.g. `css/app.css`.
    public var paths: [String] { files.keys.sorted() }

    /// The entity tag of the file at `path`, for building cache-busting URLs.
    public func etag(of path: String) -> String? {
        files[path]?.etag
    }

    /// Answers a `GET` or `HEAD` for the file at `path` (relative to the folder).
    /// - Returns: 200 with the file, or 304 when the client's `If-None-Match` names the
    ///   current version.
    /// - Throws: ``HTTPError`` 404 when no such file is served.
    public func response(for request: Request, path: String) throws -> Response {
        guard let file = files[path] else {
            throw HTTPError(.notFound, "There is no file at this address.")
        }
        return file.answer(ifNoneMatch: request.headers["If-None-Match"])
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

    /// A strong entity tag from the content (64-bit FNV-1a), so it is stable across restarts.
    private static func etag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
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
