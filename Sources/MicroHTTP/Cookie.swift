/// A cookie to set on the client, rendered as one `Set-Cookie` header.
///
/// ```swift
/// response.setCookie(Cookie(name: "sid", value: id, httpOnly: true, sameSite: .lax))
/// ```
public struct Cookie: Sendable, Hashable {
    /// The `SameSite` attribute.
    public enum SameSite: String, Sendable {
        /// Sent only with requests from the cookie's own site.
        case strict = "Strict"
        /// Also sent when following a link from another site, never with its forms or scripts.
        case lax = "Lax"
        /// Sent with every request; needs ``Cookie/secure``.
        case none = "None"
    }

    /// The cookie's name.
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The path prefix the client sends the cookie for; `nil` leaves it to the client.
    public var path: String?
    /// Lifetime in seconds; `nil` makes a session cookie, `0` deletes the cookie.
    public var maxAge: Int?
    /// Whether scripts in the page are kept from reading the cookie.
    public var httpOnly: Bool
    /// Whether the client sends the cookie over HTTPS only.
    public var secure: Bool
    /// Whether the client sends the cookie with requests from other sites; `nil` omits the attribute.
    public var sameSite: SameSite?

    /// Creates a cookie. Name and value must already be cookie-safe tokens.
    public init(
        name: String,
        value: String,
        path: String? = "/",
        maxAge: Int? = nil,
        httpOnly: Bool = true,
        secure: Bool = false,
        sameSite: SameSite? = .lax
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// The value of a `Set-Cookie` header for this cookie.
    public var headerValue: String {
        // Counted, then written into a string allocated once at its final size: this runs
        // for every cookie of every answer, and appending piece by piece costs several times more.
        let maxAgeText = maxAge.map { String($0) }
        var count = 0
        forEachPiece(maxAge: maxAgeText) { count += $0.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            forEachPiece(maxAge: maxAgeText) { piece in
                var piece = piece
                piece.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: bytes)
                    written += bytes.count
                }
            }
            return written
        }
    }

    /// Calls `body` with each piece of the header value, in order.
    private func forEachPiece(maxAge maxAgeText: String?, _ body: (String) -> Void) {
        body(name)
        body("=")
        body(value)
        if let path {
            body("; Path=")
            body(path)
        }
        if let maxAgeText {
            body("; Max-Age=")
            body(maxAgeText)
        }
        if httpOnly { body("; HttpOnly") }
        if secure { body("; Secure") }
        if let sameSite {
            body("; SameSite=")
            body(sameSite.rawValue)
        }
    }
}
