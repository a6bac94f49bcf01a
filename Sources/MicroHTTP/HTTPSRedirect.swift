/// The plain-HTTP listener beside an HTTPS one: every request, whatever its method, is answered
/// `308 Permanent Redirect` to the same address over HTTPS (the method and body kept by the
/// client, as 308 asks), and nothing else is served there.
///
/// The path and query are the request target exactly as the client sent it (the path of an
/// absolute address such as `http://host/x`); a target with spaces or control characters, or
/// one that is neither a path nor an absolute address (`*`, say), gets 400 instead. The host
/// comes from the request's `Host` (its port replaced by ``httpsPort``), which the server has
/// set to an absolute address's own host (RFC 9112 §3.2.2); a `Host` that is missing or not a
/// plain host name or address gets ``fallbackHost``, and when that is a wildcard address
/// (`0.0.0.0`, `::`) no host is known: 400.
public struct HTTPSRedirect: HTTPResponder {
    /// The HTTPS listener's port (left out of the address when 443), asked at each request:
    /// a listener on port 0 knows its port only once started.
    public let httpsPort: @Sendable () -> Int
    /// The host named when the request's `Host` cannot be used (the listening address, say);
    /// a wildcard address names none.
    public let fallbackHost: String

    public init(httpsPort: @escaping @Sendable () -> Int, fallbackHost: String) {
        self.httpsPort = httpsPort
        self.fallbackHost = fallbackHost
    }

    /// The address is rebuilt from the target as sent, not from the decoded path and query.
    public var readsRawTargets: Bool { true }

    public func respond(to request: Request) -> Response {
        redirect(request, host: request.headers["Host"])
    }

    /// A request the server could not read (a malformed escape, a body over the limit) still
    /// learns where the shop is; with two `Host` fields, neither is trusted.
    public func respond(to error: HTTPError, for request: Request) -> Response {
        redirect(request, host: error.reason == .repeatedHost ? nil : request.headers["Host"])
    }

    private func redirect(_ request: Request, host: String?) -> Response {
        let location: String
        switch self.location(target: request.target, host: host) {
        case .success(let address):
            location = address
        case .failure(let refusal):
            return ErrorPage.plain(refusal)
        }
        var response = Response(status: HTTPStatus(code: 308, reasonPhrase: "Permanent Redirect"))
        response.headers["Location"] = location
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `https://HOST[:PORT]` followed by the target's path and query, byte for byte, or why
    /// there is no such address.
    func location(target: String, host field: String?) -> Result<String, HTTPError> {
        guard let pathAndQuery = Self.pathAndQuery(of: target) else {
            return .failure(HTTPError(.badRequest, "The address is not a path, or contains spaces or control characters.", reason: .malformedAddress))
        }
        var host = field.flatMap(Self.hostName)
        if host == nil, !Self.isWildcard(fallbackHost) {
            host = fallbackHost.contains(":") ? "[\(fallbackHost)]" : fallbackHost
        }
        guard let host else {
            return .failure(HTTPError(.badRequest, "A Host header is needed to know where to redirect.", reason: .missingHost))
        }
        let port = httpsPort()
        return .success("https://" + (port == 443 ? host : "\(host):\(port)") + pathAndQuery)
    }

    /// The path and query of a raw target: an origin-form target itself, the part of an
    /// absolute one after its authority (`/` when it names no path); `nil` for any other target
    /// (`*` names no resource to send anyone to), or one with a byte that has no place in a
    /// `Location` (space, control).
    static func pathAndQuery(of target: String) -> String? {
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        if target.hasPrefix("/") { return target }
        guard case .absolute = RequestTargetForm(target), let colon = target.firstIndex(of: ":") else { return nil }
        // After `://`; the authority ends at the path or, when there is none, at the query.
        let authority = target[target.index(colon, offsetBy: 3)...]
        guard let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        return target[end] == "/" ? String(target[end...]) : "/" + target[end...]
    }

    /// Whether `host` is an address that means every interface, which no client can reach.
    static func isWildcard(_ host: String) -> Bool {
        host.isEmpty || host == "0.0.0.0" || host == "::"
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
