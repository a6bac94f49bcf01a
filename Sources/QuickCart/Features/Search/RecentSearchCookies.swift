import MicroHTTP

/// The recent searches of a session not stored yet, carried in a cookie of their own.
///
/// Searching is reading: it never stores a session, so a crawler following the category links
/// costs no storage. The shopper's searches still follow them, to every instance of a cluster,
/// as a stored session's do: the cookie goes wherever the browser's next request goes. The
/// session's first change (or its join) stores them with it, and the cookie is cleared; a
/// stored session never reads it again, so no copy of it brings back what was cleared since.
///
/// The value is `MAC*SEARCH*SEARCH…`, newest first, each search percent-encoded (so holding no
/// `*`), the MAC an HMAC-SHA-256 of the client it was written for and the searches. A cookie
/// anyone else wrote, or this shop wrote for another browser (one signed out since: its
/// successor starts with none), shows nothing.
struct RecentSearchCookies: Sendable {
    /// The cookie's name over plain HTTP; `__Host-` prefixed with `--secure-cookies`, as the
    /// session's, so no sibling subdomain can set one.
    static let cookieName = "quickcart_searches"
    /// The most bytes of searches a cookie holds: five of everyday length, well inside the
    /// 4 KiB a browser keeps of a cookie; older ones that do not fit are left out.
    static let maximumBytes = 1_500

    private let key: HMACKey
    private let secure: Bool
    /// As long as a session lasts unused: the searches are its.
    private let lifetimeSeconds: Int
    private let name: String

    /// - Parameters:
    ///   - secret: The shop's secret; these cookies sign under a key of their own derived from it.
    ///   - lifetimeSeconds: How long the searches are kept after the last one (the session's idle lifetime).
    init(secret: [UInt8], secure: Bool, lifetimeSeconds: Int) {
        key = HMACKey(HMACKey(secret).authenticate("quickcart recent searches key".utf8))
        self.secure = secure
        self.lifetimeSeconds = lifetimeSeconds
        name = secure ? "__Host-" + Self.cookieName : Self.cookieName
    }

    /// The searches `request` carries for the client stored (or to be stored) under `clientID`,
    /// newest first; none when there is no cookie, or it was not written by this shop for that
    /// client, or holds what no search may (``SearchController/problem(with:)``).
    func searches(in request: Request, forClient clientID: String) -> [String] {
        guard let value = request.cookies[name], !value.isEmpty else { return [] }
        let parts = value.split(separator: "*", omittingEmptySubsequences: false)
        guard parts.count > 1, parts.count <= SearchHistory.limit + 1 else { return [] }
        let encoded = parts.dropFirst().map(String.init)
        guard ConstantTime.equals(String(parts[0]), mac(encoded, clientID: clientID)) else { return [] }
        var searches: [String] = []
        for part in encoded {
            guard let search = PercentEncoding.decoding(part), !search.isEmpty, SearchController.problem(with: search) == nil else { return [] }
            searches.append(search)
        }
        return searches
    }

    /// The `Set-Cookie` that keeps `searches` (newest first) for the client stored (or to be
    /// stored) under `clientID`: as many of the newest as fit in ``maximumBytes``, which it
    /// returns as `kept`, so that a page shows no search its cookie could not hold.
    func keeping(_ searches: [String], forClient clientID: String) -> (kept: [String], cookie: Cookie) {
        var kept: [String] = []
        var encoded: [String] = []
        var bytes = 0
        for search in searches.prefix(SearchHistory.limit) {
            let part = PercentEncoding.encodingAllButUnreserved(search)
            bytes += part.utf8.count + 1
            guard bytes <= Self.maximumBytes else { break }
            kept.append(search)
            encoded.append(part)
        }
        guard !encoded.isEmpty else { return ([], clearingCookie()) }
        let value = ([mac(encoded, clientID: clientID)] + encoded).joined(separator: "*")
        return (kept, Cookie(name: name, value: value, path: "/", maxAge: lifetimeSeconds, secure: secure))
    }

    /// The `Set-Cookie` that ends the cookie: its searches were stored, or cleared.
    func clearingCookie() -> Cookie {
        Cookie(name: name, value: "", path: "/", maxAge: 0, secure: secure)
    }

    /// Whether `request` carries the cookie at all (to clear it once its searches are stored).
    func isCarried(by request: Request) -> Bool {
        request.cookies[name] != nil
    }

    /// The first 16 bytes of the HMAC of `searches|CLIENT|SEARCH*SEARCH…`, in hex.
    private func mac(_ encoded: [String], clientID: String) -> String {
        Hex.encode(key.authenticate("searches|\(clientID)|\(encoded.joined(separator: "*"))".utf8).prefix(16))
    }
}
