/// A cookie to set on the client, rendered as one `Set-Cookie` header.
///
/// ```swift
/// response.setCookie(Cookie(name: "sid", value: id, httpOnly: true, sameSite: .lax))
/// ```
public struct Cookie: Sendable, Hashable {
    /// The `SameSite` attribute.
    public enum SameSite: String, Sendable {
        case strict = "Strict", lax = "Lax", none = "None"
    }

    public var name: String
    public var value: String
    public var path: String?
    /// Lifetime in seconds; `nil` makes a session cookie, `0` deletes the cookie.
    public var maxAge: Int?
    public var httpOnly: Bool
    public var secure: Bool
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
