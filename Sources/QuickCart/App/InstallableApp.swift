import FoundationEssentials
import MicroHTTP

extension InstallableApp: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let files = shop.staticFiles
        let app = try InstallableApp(
            release: shop.release,
            manifest: AppManifest(shop: shop.configuration.shop) { files.versionedURL($0) },
            // Every style sheet and script module (pages and modules name them by these versioned
            // addresses), and the tab's icon; the app's icons come with the manifest.
            precache: files.paths.filter { ($0.hasPrefix("css/") && $0.hasSuffix(".css")) || ($0.hasPrefix("js/") && $0.hasSuffix(".js")) }
                .map { files.versionedURL($0) } + [shop.assets.favicon.string],
            offlinePage: try shop.pages.page(OfflineView.self, tab: nil), staticFiles: files
        )
        routes.serve("/manifest.webmanifest") { app.manifest($0) }
        routes.serve("/sw.js") { try app.worker($0) }
        routes.serve("/sw-assets.json") { app.assetList($0) }
        routes.serve(offlinePath) { app.offlinePage($0) }
    }

    /// Where the offline page is, as the worker's asset list names it.
    private static let offlinePath = "/offline"
}

/// What makes the shop an installable app that is honest on a bad network, answered from bytes
/// made once at start:
///
/// - `GET /manifest.webmanifest`: the ``AppManifest`` (`application/manifest+json`).
/// - `GET /sw.js?v=RELEASE`: the service worker, `Public/sw.js` as it is. Its scope is the
///   whole shop; the page registers it with this release in the address, so a new release is a
///   new worker, which installs beside the old one and waits (see the README's "Installed").
/// - `GET /sw-assets.json`: this release and the versioned files its worker keeps.
/// - `GET /offline`: the offline page, rendered without a session: the worker keeps it and
///   answers a navigation with it only when the network is gone.
struct InstallableApp: Sendable {
    /// ``AppRelease``'s digest.
    let release: String
    private let manifest: FixedAnswer
    private let assets: FixedAnswer
    private let offline: FixedAnswer
    private let staticFiles: StaticFiles

    /// The header that names the release an answer belongs to, which the worker checks so
    /// that it never keeps another release's offline page.
    static let releaseHeader = "X-QuickCart-Release"

    /// - Parameters:
    ///   - precache: The versioned addresses of the style sheet, scripts and icons pages use.
    init(release: String, manifest: AppManifest, precache: [String], offlinePage: ShopPage<OfflineView>, staticFiles: StaticFiles) throws {
        self.release = release
        self.staticFiles = staticFiles
        self.manifest = FixedAnswer(try manifest.json(), contentType: "application/manifest+json")
        let list = AssetList(release: release, offline: Self.offlinePath, precache: precache + manifest.iconURLs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.assets = FixedAnswer(try encoder.encode(list), contentType: "application/json", release: release)
        let page = offlinePage.render(
            OfflineView(), .init(title: "Offline", tab: nil, cartCount: 0, returnTo: TabBar.TabID.home.path, isOffline: true), session: nil
        )
        let body: [UInt8] = if case .bytes(let bytes) = page.body { bytes } else { [] }
        self.offline = FixedAnswer(body, contentType: "text/html; charset=utf-8", release: release)
    }

    func manifest(_ request: Request) -> Response { manifest.answer(request) }
    func assetList(_ request: Request) -> Response { assets.answer(request) }
    func offlinePage(_ request: Request) -> Response { offline.answer(request) }

    /// The worker's script. Browsers check it for a new version on navigations; it is always
    /// revalidated (`no-cache`), so a release is found at once.
    func worker(_ request: Request) throws -> Response {
        var response = try staticFiles.response(for: request, path: "sw.js")
        response.headers["Cache-Control"] = "no-cache"
        return response
    }

    /// What `/sw-assets.json` says.
    private struct AssetList: Encodable {
        let release: String
        let offline: String
        let precache: [String]
    }
}

/// One answer made once: its bytes, an entity tag of their digest, and `no-cache`, so a client
/// revalidates each time and gets 304 while nothing changed.
private struct FixedAnswer: Sendable {
    let body: SharedBytes
    /// The same bytes for the 304, whose `Content-Length` they give, prepared apart.
    let notModifiedBody: SharedBytes
    let headers: HTTPHeaders
    let notModifiedHeaders: HTTPHeaders
    let etag: String

    init(_ bytes: some Collection<UInt8>, contentType: String, release: String? = nil) {
        let bytes = Array(bytes)
        body = SharedBytes(bytes)
        notModifiedBody = SharedBytes(sameBytesAs: body)
        etag = "\"" + String(Hex.encode(SHA256.hash(bytes)).prefix(32)) + "\""
        var headers: HTTPHeaders = ["Content-Type": contentType, "Cache-Control": "no-cache", "ETag": etag]
        if let release { headers.add(InstallableApp.releaseHeader, release) }
        self.headers = headers
        headers["Content-Type"] = nil
        notModifiedHeaders = headers
    }

    func answer(_ request: Request) -> Response {
        if let tags = request.headers["If-None-Match"], tags.split(separator: ",").contains(where: { $0.trimmingWhitespace() == etag }) {
            return Response(status: .notModified, headers: notModifiedHeaders, body: .shared(notModifiedBody))
        }
        return Response(headers: headers, body: .shared(body))
    }
}
