/// The form of a request target (RFC 9112 §3.2), as libmicrohttpd passes it (decoded, without
/// its query). Nearly every request names a path. A server must also accept an absolute
/// address (`GET http://shop.example/cart HTTP/1.1`, as proxies send it), answer it as the path
/// it names, and take the request's host from it, not from the `Host` field. `*` (OPTIONS for
/// the whole server) is left to the router; any other target is one no server can answer.
enum RequestTargetForm: Equatable {
    /// A path, or `*`: answered as it is.
    case path
    /// An `http` or `https` address: its authority (`shop.example:8080`) and the path it
    /// names (`/` when it names none).
    case absolute(authority: String, path: String)
    /// A target to refuse with 400, and why: neither a path nor an absolute address, or an
    /// absolute one with no host or with user information, which RFC 9110 (§4.2.4) asks a
    /// server to treat as an error.
    case invalid(String)

    init(_ target: String) {
        if target.utf8.first == UInt8(ascii: "/") || target == "*" {
            self = .path
            return
        }
        let bytes = Array(target.utf8)
        guard let afterScheme = Self.endOfScheme(in: bytes) else {
            self = .invalid("The address does not start with a slash.")
            return
        }
        let authorityEnd = bytes[afterScheme...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let authority = bytes[afterScheme..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else {
            self = .invalid("The address names no host, or names a user before it.")
            return
        }
        // The cuts are at ASCII bytes, so they fall between whole characters.
        self = .absolute(
            authority: String(decoding: authority, as: UTF8.self),
            path: authorityEnd == bytes.endIndex ? "/" : String(decoding: bytes[authorityEnd...], as: UTF8.self)
        )
    }

    /// Whether `text` is an authority as a request names its host: a name or an IPv4 address
    /// (unreserved characters, sub-delimiters and percent-escapes), or an IPv6 one in
    /// brackets, then an optional `:` and port digits (RFC 3986 §3.2.2, without user
    /// information); or empty.
    static func isAuthority(_ text: String) -> Bool {
        // Every request asks this of its Host: the field's own bytes are read, not a copy.
        text.utf8.withContiguousStorageIfAvailable(isAuthority) ?? isAuthority(Array(text.utf8))
    }

    private static func isAuthority(_ bytes: some RandomAccessCollection<UInt8>) -> Bool {
        var rest = bytes[...]
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")),
                  rest[rest.index(after: rest.startIndex)..<close].allSatisfy({ PercentEncoding.hexValue($0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return false }
            rest = rest[rest.index(after: close)...]
        } else {
            let hostEnd = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
            // A name: unreserved characters, percent-escapes and sub-delimiters.
            guard rest[..<hostEnd].allSatisfy({ PercentEncoding.isUnreserved($0) || "%!$&'()*+,;=".utf8.contains($0) }) else { return false }
            rest = rest[hostEnd...]
        }
        return rest.isEmpty || (rest.first == UInt8(ascii: ":") && rest.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    }

    /// Where the authority starts after `http://` or `https://` (the scheme in any case), or
    /// `nil` when `bytes` starts with neither.
    private static func endOfScheme(in bytes: [UInt8]) -> Int? {
        let lowercased = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }
        for scheme in ["http://", "https://"] where bytes.starts(with: scheme.utf8, by: { lowercased($0) == $1 }) {
            return scheme.utf8.count
        }
        return nil
    }
}
