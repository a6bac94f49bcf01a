import FoundationEssentials
import MicroHTTP
import Synchronization

/// The product photos' thumbnails that catalog imports make, served under `/media/`.
///
/// A name is `<sha-256 of the original>-<width>.webp` and its bytes never change once written
/// (an import writes a name only once), so each answer carries a strong `ETag` and may be
/// cached for a year as immutable. Only such names are looked up; anything else is 404, so no
/// request path ever reaches the file system as given. The server never decodes an image: it
/// sends the bytes the import wrote.
final class MediaFiles: Sendable, ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let media = MediaFiles(directory: CatalogImages.generatedDirectory(in: shop.configuration.mediaDirectory))
        routes.serve("/media/:name") { request in
            try media.response(for: request, name: request.routeParameters["name"] ?? "")
        }
    }


    static let cacheControl = "public, max-age=31536000, immutable"

    /// The folder of thumbnails (`generated/` in the media folder).
    let directory: String
    /// Files read so far; thumbnails are small, and a new import only adds names.
    private let loaded = Mutex<[String: SharedBytes]>([:])
    private static let loadedCapacity = 4_096

    init(directory: String) {
        self.directory = directory
    }

    /// The URL path of a thumbnail, e.g. `/media/3fa9…-320.webp`.
    static func path(of image: ProductImage, width: Int) -> String {
        "/media/" + image.thumbnailName(width: width)
    }

    /// Answers `GET /media/NAME`.
    /// - Throws: ``HTTPError`` 404 for a name that is not a thumbnail's, or one not made.
    func response(for request: Request, name: String) throws -> Response {
        guard Self.isThumbnailName(name), let bytes = bytes(of: name) else {
            throw HTTPError(.notFound, "There is no such picture.")
        }
        let etag = "\"" + name.dropLast(".webp".count) + "\""
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": Self.cacheControl]
        if let tags = request.headers["If-None-Match"],
           tags == "*" || tags.split(separator: ",").contains(where: { $0.trimmingWhitespace(newlines: false) == etag }) {
            return Response(status: .notModified, headers: headers, body: .shared(SharedBytes(sameBytesAs: bytes)))
        }
        headers.add("Content-Type", "image/webp")
        return Response(status: .ok, headers: headers, body: .shared(bytes))
    }

    private func bytes(of name: String) -> SharedBytes? {
        if let known = loaded.withLock({ $0[name] }) { return known }
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { return nil }
        let bytes = SharedBytes([UInt8](data))
        loaded.withLock { loaded in
            // Forgetting everything now and then keeps memory bounded; the files stay on disk.
            if loaded.count >= Self.loadedCapacity { loaded.removeAll(keepingCapacity: true) }
            loaded[name] = bytes
        }
        return bytes
    }

    /// 64 lower-case hex digits, a hyphen, one of the thumbnail widths, `.webp`.
    static func isThumbnailName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
              parts[1].hasSuffix(".webp"), let width = Int(parts[1].dropLast(".webp".count)) else { return false }
        return ProductImage.widths.contains(width) && parts[1] == "\(width).webp"
    }
}
