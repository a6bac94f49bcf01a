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
        var text = "\(name)=\(value)"
        if let path { text += "; Path=\(path)" }
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if httpOnly { text += "; HttpOnly" }
        if secure { text += "; Secure" }
        if let sameSite { text += "; SameSite=\(sameSite.rawValue)" }
        return text
    }
}
