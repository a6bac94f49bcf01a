import MicroHTTP

/// `GET /static/…`: `Public/`'s files. The server answers most of them itself, before routing
/// (``StaticFiles``); this route takes what it leaves (unknown files, odd requests), so they get
/// the shop's error pages.
enum StaticAssets: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let files = shop.staticFiles
        routes.serve("/static/*path") { request in
            try files.response(for: request, path: request.routeParameters["path"] ?? "")
        }
    }
}

extension StaticFiles {
    /// The address pages link `path` by: `/static/PATH?v=` its version, cached for a year.
    func versionedURL(_ path: String) -> String {
        let version = etag(of: path).map { String($0.filter(\.isHexDigit).prefix(12)) } ?? "0"
        return "/static/\(path)?v=\(version)"
    }
}
