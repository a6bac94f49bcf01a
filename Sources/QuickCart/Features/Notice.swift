import MicroHTTP

/// The one-shot message a form post leaves for the page it leads to ("Added Trail Running
/// Shoes — 2 in cart"). It rides in a short-lived cookie set on the 303 and is cleared by the
/// page that shows it, so it costs no storage, and the page script shows the same words the
/// server rendered: one wording with and without JavaScript.
enum Notice {
    /// The cookie's name.
    static let cookieName = "quickcart_notice"
    /// Long enough to reach the next page, short enough that a stale notice never surprises.
    static let lifetimeSeconds = 60
    /// Longer texts are not notices this server wrote.
    static let maximumLength = 200
    /// The header the page script sends when it re-reads its page because the cart changed
    /// elsewhere: such a read must leave a notice for the page its own form post leads to.
    static let refreshHeader = "X-QuickCart-Refresh"

    /// The `Set-Cookie` that carries `text` to the next page; `secure` with `--secure-cookies`,
    /// where every cookie the shop sets is `Secure`.
    static func cookie(_ text: String, secure: Bool) -> Cookie {
        // A text of no more bytes than the limit has no more characters either: only a longer
        // one pays for counting characters.
        let value = text.utf8.count <= maximumLength
            ? PercentEncoding.encodingAllButUnreserved(text)
            : PercentEncoding.encodingAllButUnreserved(text.prefix(maximumLength))
        return Cookie(name: cookieName, value: value, path: "/", maxAge: lifetimeSeconds, secure: secure)
    }

    /// The `Set-Cookie` that ends a notice once a page has shown it.
    static func clearingCookie(secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", path: "/", maxAge: 0, secure: secure)
    }

    /// The notice `request` carries, or `nil`: none, unreadable, or a refresh that must not take it.
    static func text(in request: Request) -> String? {
        guard request.headers[refreshHeader] == nil,
              let value = request.cookies[cookieName], !value.isEmpty,
              let text = PercentEncoding.decoding(value),
              text.count <= maximumLength, !text.containsControlCharacter
        else { return nil }
        return text
    }
}

extension ShopRequest {
    /// The notice left by the form post that led here, if any (see ``Notice``).
    var notice: String? { Notice.text(in: http) }
}
