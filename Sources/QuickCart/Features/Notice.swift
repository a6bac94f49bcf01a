import MicroHTTP

/// The one-shot message a form post leaves for the page it leads to ("Added Trail Running
/// Shoes — 2 in cart"), with, after Remove, what Undo puts back. It rides in a short-lived
/// cookie set on the 303 and is cleared by the page that shows it, so it costs no storage, and
/// the page script shows the same words the server rendered: one wording with and without
/// JavaScript. The cookie is signed (``NoticeCookies``): only this shop writes its messages.
struct Notice: Sendable, Equatable {
    /// What Remove took away, for the notice's Undo form (``CartController/undoRemove(_:)``).
    struct Undo: Sendable, Equatable {
        let productID: Int64
        let quantity: Int
        /// The cart's version right after the removal: Undo works only while the cart is still
        /// as Remove left it, so it works once.
        let cartVersion: Int64
    }

    let text: String
    var undo: Undo? = nil

    /// A product's name as a notice says it: at most ``nameLength`` characters, the rest an
    /// ellipsis. A notice covers the page on a phone (sticky at the top without JavaScript, a
    /// capsule above the tab bar with it): kept to a few lines, it leaves the row it speaks of,
    /// which shows the whole name, in sight.
    static func naming(_ name: String) -> String {
        // Every character is a byte or more: most names need no count of characters (a cart change's hot path).
        name.utf8.count <= nameLength || name.count <= nameLength ? name : name.prefix(nameLength - 1).trimmingWhitespace() + "…"
    }

    static let nameLength = 40

    /// The cookie's name over plain HTTP; with `--secure-cookies` it is `__Host-` prefixed, as
    /// the session's, so no sibling subdomain can set one.
    static let cookieName = "quickcart_notice"
    /// Long enough to reach the next page, short enough that a stale notice never surprises.
    static let lifetimeSeconds = 60
    /// Longer texts are not notices this server wrote.
    static let maximumLength = 200
    /// The header the page script sends when it re-reads its page because the cart changed
    /// elsewhere: such a read must leave a notice for the page its own form post leads to.
    static let refreshHeader = "X-QuickCart-Refresh"
}

/// Writes and reads notice cookies, signed with a key derived from the shop's secret.
///
/// The value is `EXPIRES.UNDO.MAC.TEXT`: when it stops being shown (seconds since 1970), the
/// Undo's `product-quantity-version` (empty without one), an HMAC-SHA-256 of those, the client
/// it was written for and the text, and the percent-encoded text. A cookie anyone else wrote (a
/// sibling subdomain, a script on another page of the host, a proxy) fails the MAC and shows
/// nothing; one this shop wrote for another browser (its owner's own display name, say, set on
/// a victim's browser) shows nothing either; and a copied one stops working when it expires.
struct NoticeCookies: Sendable {
    private let key: HMACKey
    /// Whether the cookies are `Secure` (`--secure-cookies`, like every cookie the shop sets).
    let secure: Bool
    /// The cookie's name: `__Host-` prefixed when `secure`.
    let name: String

    /// - Parameter secret: The shop's secret (the one session cookies are signed with); notices
    ///   sign under a key of their own derived from it, so no notice MAC is a session's.
    init(secret: [UInt8], secure: Bool) {
        key = HMACKey(HMACKey(secret).authenticate("quickcart notice key".utf8))
        self.secure = secure
        name = secure ? "__Host-" + Notice.cookieName : Notice.cookieName
    }

    /// The `Set-Cookie` that carries `notice` to `request`'s next page (of the same client),
    /// shown until the notice's lifetime is over.
    func cookie(_ notice: Notice, for request: ShopRequest) -> Cookie {
        cookie(notice, forClient: request.session.clientID, at: request.now)
    }

    /// The `Set-Cookie` that carries `notice` to a page of the client stored under `clientID`
    /// (a session's, before its first change the id that change stores it under), shown until
    /// `now` plus the notice's lifetime.
    func cookie(_ notice: Notice, forClient clientID: String, at now: Int64) -> Cookie {
        // A text of no more bytes than the limit has no more characters either: only a longer
        // one pays for counting characters.
        let text = notice.text.utf8.count <= Notice.maximumLength ? notice.text : String(notice.text.prefix(Notice.maximumLength))
        let expires = String(now + Int64(Notice.lifetimeSeconds))
        let undo = notice.undo.map { "\($0.productID)-\($0.quantity)-\($0.cartVersion)" } ?? ""
        let code = mac(expires: expires, undo: undo, clientID: clientID, text: text)
        let encoded = PercentEncoding.encodingAllButUnreserved(text)
        // Its bytes written once into the string's own storage: String's appends, one per part,
        // cost more than the parts.
        let parts = [expires, undo, code, encoded]
        let value = String(unsafeUninitializedCapacity: parts.reduce(parts.count - 1) { $0 + $1.utf8.count }) { bytes in
            var index = 0
            for (number, part) in parts.enumerated() {
                if number > 0 {
                    bytes[index] = UInt8(ascii: ".")
                    index += 1
                }
                index = bytes[index...].initialize(fromContentsOf: part.utf8)
            }
            return index
        }
        return Cookie(name: name, value: value, path: "/", maxAge: Notice.lifetimeSeconds, secure: secure)
    }

    /// The `Set-Cookie` that ends a notice once a page has shown it.
    func clearingCookie() -> Cookie {
        Cookie(name: name, value: "", path: "/", maxAge: 0, secure: secure)
    }

    /// The notice `request` carries, or `nil`: none, not signed by this shop for this client,
    /// expired, unreadable, or a refresh that must not take it.
    func notice(in request: ShopRequest) -> Notice? {
        guard request.http.headers[Notice.refreshHeader] == nil,
              let value = request.http.cookies[name], !value.isEmpty
        else { return nil }
        let parts = value.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, let expires = Int64(parts[0]), expires >= request.now,
              let text = PercentEncoding.decoding(String(parts[3])),
              ConstantTime.equals(
                String(parts[2]), mac(expires: String(parts[0]), undo: String(parts[1]), clientID: request.session.clientID, text: text)
              ),
              text.count <= Notice.maximumLength, !text.containsControlCharacter
        else { return nil }
        return Notice(text: text, undo: Self.undo(parts[1]))
    }

    /// The first 16 bytes of the HMAC of `notice|EXPIRES|UNDO|CLIENT|TEXT`, in hex.
    private func mac(expires: String, undo: String, clientID: String, text: String) -> String {
        // The message as bytes, sized once, rather than an interpolated string copied to bytes.
        var message: [UInt8] = []
        message.reserveCapacity(10 + expires.utf8.count + undo.utf8.count + clientID.utf8.count + text.utf8.count)
        message.append(contentsOf: "notice|".utf8)
        message.append(contentsOf: expires.utf8)
        message.append(UInt8(ascii: "|"))
        message.append(contentsOf: undo.utf8)
        message.append(UInt8(ascii: "|"))
        message.append(contentsOf: clientID.utf8)
        message.append(UInt8(ascii: "|"))
        message.append(contentsOf: text.utf8)
        return Hex.encode(key.authenticate(message).prefix(16))
    }

    private static func undo(_ part: Substring) -> Notice.Undo? {
        let fields = part.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, let product = Int64(fields[0]), let quantity = Int(fields[1]), let version = Int64(fields[2]) else { return nil }
        return Notice.Undo(productID: product, quantity: quantity, cartVersion: version)
    }
}
