/// The plain-HTTP listener beside an HTTPS one: every request, whatever its method, is answered
/// `308 Permanent Redirect` to the same address over HTTPS (the method and body kept by the
/// client, as 308 asks), and nothing else is served there.
///
/// The host comes from the request's `Host` (its port replaced by ``httpsPort``); a `Host` that
/// is not a plain host name or address gets ``fallbackHost``.
public struct HTTPSRedirect: HTTPResponder {
    /// The HTTPS listener's port (left out of the address when 443), asked at each request:
    /// a listener on port 0 knows its port only once started.
    public let httpsPort: @Sendable () -> Int
    /// The host named when the request's `Host` cannot be used.
    public let fallbackHost: String

    public init(httpsPort: @escaping @Sendable () -> Int, fallbackHost: String) {
        self.httpsPort = httpsPort
        self.fallbackHost = fallbackHost
    }

    public func respond(to request: Request) -> Response {
        var response = Response(status: HTTPStatus(code: 308, reasonPhrase: "Permanent Redirect"))
        response.headers["Location"] = location(for: request)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// A request the server could not read still learns where the shop is.
    public func respond(to error: HTTPError, for request: Request) -> Response {
        var response = Response(status: HTTPStatus(code: 308, reasonPhrase: "Permanent Redirect"))
        response.headers["Location"] = "https://\(authority(host: nil))/"
        return response
    }

    /// `https://HOST[:PORT]/path?query`, the path and query encoded again as sent.
    func location(for request: Request) -> String {
        let path = request.path.hasPrefix("/") ? request.path : "/"
        var location = "https://" + authority(host: request.headers["Host"])
            + path.split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encodingAllButUnreserved($0) }.joined(separator: "/")
        if request.query.count > 0 {
            location += "?" + request.query.map { PercentEncoding.encodingAllButUnreserved($0.name) + "=" + PercentEncoding.encodingAllButUnreserved($0.value) }
                .joined(separator: "&")
        }
        return location
    }

    private func authority(host field: String?) -> String {
        var host = fallbackHost.contains(":") ? "[\(fallbackHost)]" : fallbackHost
        if let field, let named = Self.hostName(field) { host = named }
        let port = httpsPort()
        return port == 443 ? host : "\(host):\(port)"
    }

    /// The host of a `Host` field, without its port, when it is a plain name or address.
    static func hostName(_ field: String) -> String? {
        var host = Substring(field)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = host[...close]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        let allowed = host.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
        }
        return allowed && !host.isEmpty && host.utf8.count <= 253 ? String(host) : nil
    }
}
