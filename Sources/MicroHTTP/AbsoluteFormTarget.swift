/// A request target in absolute form (`GET http://shop.example/cart HTTP/1.1`). Proxies send
/// it, and any client may: a server must accept it (RFC 9112 §3.2.2), answer it as the path
/// it names, and take the request's host from it, not from the `Host` field.
enum AbsoluteFormTarget: Equatable {
    /// An `http` or `https` target: its authority (`shop.example:8080`) and the path it
    /// names (`/` when it names none).
    case absolute(authority: String, path: String)
    /// An absolute target with no host, or with user information before it, which RFC 9110
    /// (§4.2.4) asks a server to treat as an error.
    case malformed

    /// Reads `target`, as libmicrohttpd passes it (decoded, without its query): `nil` when it
    /// is not in absolute form, as every target starting with `/` is not.
    init?(_ target: String) {
        guard target.utf8.first != UInt8(ascii: "/") else { return nil }
        let bytes = Array(target.utf8)
        guard let afterScheme = Self.endOfScheme(in: bytes) else { return nil }
        let authorityEnd = bytes[afterScheme...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let authority = bytes[afterScheme..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else {
            self = .malformed
            return
        }
        // The cuts are at ASCII bytes, so they fall between whole characters.
        self = .absolute(
            authority: String(decoding: authority, as: UTF8.self),
            path: authorityEnd == bytes.endIndex ? "/" : String(decoding: bytes[authorityEnd...], as: UTF8.self)
        )
    }

    /// Where the authority starts after `http://` or `https://` (the scheme in any case), or
    /// `nil` when `bytes` starts with neither.
    private static func endOfScheme(in bytes: [UInt8]) -> Int? {
        for scheme in ["http://", "https://"] {
            let prefix = Array(scheme.utf8)
            guard bytes.count >= prefix.count else { continue }
            let isUpperCase = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
            if zip(bytes, prefix).allSatisfy({ (isUpperCase($0) ? $0 | 0x20 : $0) == $1 }) { return prefix.count }
        }
        return nil
    }
}
