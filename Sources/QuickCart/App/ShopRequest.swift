import MicroHTTP

/// A request together with the session it belongs to and that session's cart, read together:
/// what every feature's handler gets.
struct ShopRequest {
    let http: Request
    let session: Session
    /// The session's cart as it was when the request began.
    let cart: Cart
    /// The cart's version, read with it.
    let cartVersion: Int64
    /// Whether the session began with this request: it carried no working session cookie.
    let isNewSession: Bool
    /// When the request is being handled, in milliseconds since 1970 (UTC).
    let nowMilliseconds: Int64

    /// Where each tab was last left, so switching back returns there: only Search has pages
    /// below its root, and it returns to the session's newest search. Derived from what is
    /// stored (or, for a session not stored yet, waiting in memory), never echoed into a cookie.
    var places: [TabBar.TabID: String] {
        guard let search = session.newestSearch else { return [:] }
        return [.search: SearchController.href(for: search)]
    }

    /// Whether the request comes from this shop's own pages or the shopper's own hand (an
    /// address typed, a bookmark), not from another site: `Sec-Fetch-Site` is `same-origin` or
    /// `none`; a browser that does not send it passes when its `Origin` (or `Referer`), if
    /// any, is this site. A cross-site link carries the Lax session cookie too, so what such a
    /// request may write is decided here (a search it makes is not remembered).
    var isSameSite: Bool {
        if let site = http.headers["Sec-Fetch-Site"]?.lowercased() { return site == "same-origin" || site == "none" }
        return SessionManager.isSameOrigin(http)
    }

    /// Seconds since 1970 (UTC).
    var now: Int64 { nowMilliseconds / 1000 }

    /// The badge's number with the cart's version, for the live badge.
    var badge: CartChange { CartChange(itemCount: cart.itemCount, version: cartVersion) }

    /// Where a form post's `303` leads back to: the one rule for every form that changes
    /// something on the page it is on. Each such form carries the page's own address as
    /// `return_to` (the layout's ``LayoutView/returnTo``); the answer leads there when it is a
    /// path on this site, else to `fallback` (a client that sent none), never to an absolute
    /// or protocol-relative URL (no open redirects). With `place` (a row's or a section's id)
    /// the address's fragment becomes `#place`, so the browser scrolls back to it (an empty
    /// `place`: the page's top, no fragment). Forms that
    /// lead on to another page (checkout, a join, signing out) name where they lead instead.
    func returnPath(default fallback: String, at place: String? = nil) -> String {
        var target = fallback
        if let given = http.form["return_to"], Self.isLocalPath(given) { target = given }
        guard let place else { return target }
        // `#` is ASCII, so its byte starts a character wherever it is found.
        if let fragment = target.utf8.firstIndex(of: UInt8(ascii: "#")) { target = String(target[..<fragment]) }
        return place.isEmpty ? target : target + "#" + place
    }

    static func isLocalPath(_ target: String) -> Bool {
        // Byte by byte: every byte of a non-ASCII character is 0x80 or more, so the ASCII
        // rules (a leading `/` not followed by another, no backslash, no space or control
        // character) read the same on bytes as on characters.
        let bytes = target.utf8
        guard bytes.count <= 512, bytes.first == UInt8(ascii: "/"), bytes.dropFirst().first != UInt8(ascii: "/") else { return false }
        return !bytes.contains { $0 < 0x21 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }
    }

    /// A whole number from a form field. Numbers too large for `Int` saturate, since they
    /// are clamped into range anyway.
    /// - Throws: ``HTTPError`` 400 naming the field when it is missing or not a whole number.
    func integer(_ field: String, named label: String) throws -> Int {
        guard let value = try parseInteger(field, named: label) else {
            throw HTTPError(.badRequest, "The \(label) is missing.")
        }
        return value
    }

    /// A whole number from a form field that may be left out; when it is there, it is read as
    /// ``integer(_:named:)`` reads it.
    /// - Returns: `nil` when the form has no such field.
    /// - Throws: ``HTTPError`` 400 naming the field when it is there but blank ("missing") or
    ///   not a whole number.
    func optionalInteger(_ field: String, named label: String) throws -> Int? {
        guard http.form[field] != nil else { return nil }
        return try integer(field, named: label)
    }

    /// The field's whole number (saturating), `nil` when it is missing or blank.
    private func parseInteger(_ field: String, named label: String) throws -> Int? {
        guard let raw = http.form[field] else { return nil }
        // Most fields are a plain number: read as they are, before anything is trimmed.
        if let value = Int(raw) { return value }
        let text = raw.trimmingWhitespace(newlines: false)[...]
        guard !text.isEmpty else { return nil }
        if let value = Int(text) { return value }
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : text
        // Bytes, not characters: "1\u{0301}" or "5\u{20E3}" is one Character that sorts
        // between "0" and "9", yet no number.
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw HTTPError(.badRequest, "The \(label) “\(text.prefix(40))” is not a whole number.")
        }
        return text.hasPrefix("-") ? Int.min : Int.max
    }

    /// The id in the path (`/cart/items/:id/…`).
    /// - Throws: ``HTTPError`` 404 unless it is an id as the shop spells it (``RecordID``).
    func productID() throws -> Int64 {
        guard let id = http.routeParameters["id"].flatMap(RecordID.parse) else {
            throw HTTPError(.notFound, "There is no such item.")
        }
        return id
    }
}

extension ShopRequest {
    /// `http` with what ``SessionManager/resolve(_:at:)`` found for it, taken over rather than copied.
    init(http: Request, resolution: consuming SessionManager.Resolution, nowMilliseconds: Int64) {
        self.init(
            http: http, session: resolution.session, cart: resolution.cart, cartVersion: resolution.cartVersion,
            isNewSession: resolution.isNew, nowMilliseconds: nowMilliseconds
        )
    }
}
