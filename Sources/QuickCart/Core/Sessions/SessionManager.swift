import MicroHTTP
import Synchronization

/// Finds the session a request belongs to, or begins a new one, and guards forms against
/// cross-site request forgery.
///
/// A session is a client (this browser) of a shopper. Its id lives only in its cookie. Storage
/// knows the client by the SHA-256 of the id, so a leaked database holds no id that a cookie
/// could carry. A client is stored (with a new shopper) only with its first change, and then
/// under a new id (the cookie's id ``SessionToken/rotated(key:at:)``), whose cookie that
/// change's answer sets: an id someone planted on a browser before it stored anything reaches
/// what the browser stores only until ``spentCookieGrace`` is over, and is never given a
/// cookie; then it is spent: it leads to a new, empty session. A client signed out is spent
/// for good, with every id it had.
public final class SessionManager: Sendable {
    /// The session cookie's name over plain HTTP.
    public static let cookieName = "quickcart_session"
    /// The session cookie's name with `--secure-cookies`. Browsers keep a `__Host-` cookie only
    /// when it is `Secure`, has `Path=/` and no `Domain`, and was set by this very host over
    /// HTTPS, so no sibling subdomain can plant one.
    public static let hostOnlyCookieName = "__Host-" + cookieName

    /// A request's session with its cart, read together, and the cookie to set.
    public struct Resolution: Sendable {
        public var session: Session
        /// The session's cart: the starter cart while the session is not stored.
        public var cart: Cart
        /// The cart's version (0 while the session is not stored).
        public var cartVersion: Int64
        /// The cookie to set with the answer: a new session's, or a stored one's, renewed.
        public var cookie: Cookie?
        /// Whether the session began with this request: it carried no working session cookie
        /// that this server issued (none, more than one, forged, expired or spent).
        public var isNew: Bool
        /// The token of the request's cookie, or of the new session; `nil` for an app's bearer
        /// token, which no change replaces.
        let token: SessionToken?

        /// The token whose rotated id a change would store the client under: `nil` when the
        /// client was stored already (``SessionManager/cookie(rotating:at:)`` makes its cookie).
        var rotatingToken: SessionToken? {
            session.isStored ? nil : token
        }
    }

    /// What a token yields under the secret, for its own id and for the id it rotates to; all
    /// of it is a pure function of the token and the secret. A class, so taking one from the
    /// cache retains one object rather than each of its strings.
    private final class Derived: Sendable {
        let token: SessionToken
        let clientID: String
        let csrfToken: String
        let liveKey: String
        let rotatedClientID: String
        let rotatedCSRFToken: String
        let rotatedLiveKey: String
        /// The shopper a first change of the rotated client stores, and its live key.
        let newShopperID: String
        let newShopperLiveKey: String

        init(token: SessionToken, clientID: String, rotatedClientID: String, key: HMACKey) {
            self.token = token
            self.clientID = clientID
            csrfToken = SessionManager.csrfToken(for: token.id, key: key)
            liveKey = SessionManager.liveKey(ofClient: clientID, key: key)
            self.rotatedClientID = rotatedClientID
            let rotatedID = token.rotated(key: key, at: token.issuedAt).id
            rotatedCSRFToken = SessionManager.csrfToken(for: rotatedID, key: key)
            rotatedLiveKey = SessionManager.liveKey(ofClient: rotatedClientID, key: key)
            newShopperID = Hex.encode(Array(key.authenticate("shopper|\(rotatedClientID)".utf8).prefix(32)))
            newShopperLiveKey = SessionManager.liveKey(ofShopper: newShopperID, key: key)
        }
    }

    /// A cookie value as a key of the verified cookies, hashed by its length and first 16
    /// bytes rather than all of it: those are the token's id, random or an HMAC, which nobody
    /// who wants entries to collide can choose; only verified values are ever stored.
    private struct CookieKey: Hashable {
        let value: String

        init(_ value: String) {
            self.value = value
        }

        func hash(into hasher: inout Hasher) {
            var value = value
            value.withUTF8 { bytes in
                hasher.combine(bytes.count)
                guard bytes.count >= 16, let base = bytes.baseAddress else {
                    return hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                }
                let raw = UnsafeRawPointer(base)
                hasher.combine(raw.loadUnaligned(as: UInt64.self))
                hasher.combine(raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        }
    }

    /// The session cookie's name: ``hostOnlyCookieName`` with secure cookies, else ``cookieName``.
    public let cookieName: String
    let store: any SessionStore
    /// The cart of a session that is not stored yet.
    private let liveCatalog: LiveCatalog
    let key: HMACKey
    let idleLifetime: Int64
    private let secureCookies: Bool
    /// Storing `last_seen` on every request would turn every page view into a write.
    let touchInterval: Int64 = 300
    /// Cookies already verified, with what they yield: computing it is most of a session's
    /// cost per request.
    private let verified = Mutex<[CookieKey: Derived]>([:])
    static let verifiedCapacity = 10_000
    /// Apps' bearer tokens already verified, with what they yield (``SessionManager/resolve(bearer:at:)``):
    /// pure functions of the token and the secret, so a revocation is never cached here.
    let verifiedBearers = Mutex<[String: BearerKeys]>([:])

    init(store: any SessionStore, secret: [UInt8], liveCatalog: LiveCatalog, idleLifetime: Int64, secureCookies: Bool) {
        self.store = store
        self.liveCatalog = liveCatalog
        key = HMACKey(secret)
        self.idleLifetime = idleLifetime
        self.secureCookies = secureCookies
        cookieName = secureCookies ? Self.hostOnlyCookieName : Self.cookieName
    }

    /// The session of `request`, with its cart. A missing, duplicated, forged, altered,
    /// expired or spent cookie gets a new session with a new random id, never someone else's;
    /// the cookie of a client signed out gets one with an empty cart.
    public func resolve(_ request: Request, at now: Int64) throws -> Resolution {
        var signedOut = false
        if let value = SessionCookie.soleValue(named: cookieName, in: request.headers.values(named: "Cookie")), let derived = verify(value) {
            switch try resolveIssued(derived, at: now) {
            case .found(var resolution):
                if !resolution.session.isStored { resolution.session.device = DeviceName.of(userAgent: request.headers["User-Agent"]) }
                return resolution
            case .signedOut:
                signedOut = true
            case .gone:
                break
            }
        }
        // A browser signed out (here or from another device) starts a fresh, empty shopper.
        let token = SessionToken.issue(at: now, startsEmpty: signedOut)
        var session = unstoredSession(of: derive(token), createdAt: now)
        session.device = DeviceName.of(userAgent: request.headers["User-Agent"])
        return Resolution(session: session, cart: startingCart(of: session), cartVersion: 0, cookie: cookie(for: token), isNew: true, token: token)
    }

    /// Where a cookie this server signed leads.
    private enum Issued {
        case found(Resolution)
        /// Its client was signed out: it, and every id it had, are spent for good.
        case signedOut
        /// It expired, or its grace after the first change is over.
        case gone
    }

    /// The cart of a client not stored yet.
    func startingCart(of session: Session) -> Cart {
        session.startsEmpty ? Cart() : liveCatalog.current.starterCart
    }

    /// The session of a cookie this server signed, or why it no longer leads anywhere.
    private func resolveIssued(_ derived: Derived, at now: Int64) throws -> Issued {
        let token = derived.token
        switch try store.session(clientID: derived.clientID) {
        case .active(let stored):
            guard stored.lastSeen >= now - idleLifetime else { return .gone }
            let session = storedSession(stored, clientID: derived.clientID, csrfToken: derived.csrfToken, liveKey: derived.liveKey)
            let renews = now - stored.lastSeen >= touchInterval
            if renews { try store.touch(clientID: derived.clientID, at: now) }
            // Renewing the cookie keeps an active client alive past its first Max-Age.
            return .found(Resolution(
                session: session, cart: stored.cart, cartVersion: stored.cartVersion, cookie: renews ? cookie(for: token) : nil,
                isNew: false, token: token
            ))
        case .spent:
            return .signedOut
        case nil:
            break
        }
        guard token.issuedAt >= now - idleLifetime else { return .gone }
        switch try store.session(clientID: derived.rotatedClientID) {
        case .active(let stored):
            return resolveReplaced(derived, stored: stored, at: now).map(Issued.found) ?? .gone
        case .spent:
            // Signed out: the cookie from before the first change is spent with the rest.
            return .signedOut
        case nil:
            let session = unstoredSession(of: derived, createdAt: token.issuedAt)
            return .found(Resolution(session: session, cart: startingCart(of: session), cartVersion: 0, cookie: nil, isNew: false, token: token))
        }
    }

    /// The session of a cookie whose first change stored the client under its rotated id.
    ///
    /// For ``spentCookieGrace`` after the cookie was issued it still reaches that client, so
    /// requests already on their way when the first change committed must not lose their work
    /// (or get 403 for a form that was right when it was rendered). It is never given the
    /// rotated cookie, so whoever holds it (an id planted on a browser before its first change)
    /// reaches the client for that window and no longer; after it, the cookie leads to a new
    /// session.
    private func resolveReplaced(_ derived: Derived, stored: StoredSession, at now: Int64) -> Resolution? {
        guard now - derived.token.issuedAt < Self.spentCookieGrace, stored.lastSeen >= now - idleLifetime else { return nil }
        var session = storedSession(stored, clientID: derived.rotatedClientID, csrfToken: derived.rotatedCSRFToken, liveKey: derived.rotatedLiveKey)
        session.isGraceCookie = true
        return Resolution(session: session, cart: stored.cart, cartVersion: stored.cartVersion, cookie: nil, isNew: false, token: derived.token)
    }

    func storedSession(_ stored: StoredSession, clientID: String, csrfToken: String, liveKey: String) -> Session {
        var session = Session(
            clientID: clientID, shopperID: stored.shopperID, createdAt: stored.createdAt, displayName: stored.displayName, isStored: true,
            csrfToken: csrfToken, liveKey: liveKey, shopperLiveKey: stored.shopperLiveKey
        )
        session.preferences = stored.preferences
        session.newestSearch = stored.newestSearch
        return session
    }

    /// A client not stored yet: it is known under the id its first change moves it to, with
    /// the shopper that change makes.
    private func unstoredSession(of derived: Derived, createdAt: Int64) -> Session {
        var session = Session(
            clientID: derived.rotatedClientID, shopperID: derived.newShopperID, createdAt: createdAt,
            displayName: Session.defaultDisplayName, isStored: false, csrfToken: derived.rotatedCSRFToken,
            liveKey: derived.rotatedLiveKey, shopperLiveKey: derived.newShopperLiveKey
        )
        session.startsEmpty = derived.token.startsEmpty
        return session
    }

    /// How long a cookie whose client was stored under a rotated id still reaches it,
    /// counted from the cookie's issue (seconds).
    static let spentCookieGrace: Int64 = 300

    /// The cookie to set on the answer to a change that stores `resolution`'s client: its
    /// rotated id's. `nil` when the client was stored already.
    public func cookieOnceStored(for resolution: Resolution, at now: Int64) -> Cookie? {
        resolution.rotatingToken.map { cookie(rotating: $0, at: now) }
    }

    /// The request's session cookie set again, for an answer that must change a cookie the
    /// browser holds though no renewal is due: Chromium keeps `no-store` pages for Back and
    /// restores them unless an `HttpOnly` cookie changed since, so the page before such an
    /// answer (Review, once its order is placed) is dropped rather than shown as it was.
    /// `nil` for a session not stored (its first change sets the rotated cookie anyway), a
    /// cookie in its grace (never renewed) and an app's token.
    func reissuedCookie(for resolution: Resolution) -> Cookie? {
        guard resolution.session.isStored, !resolution.session.isGraceCookie, let token = resolution.token else { return nil }
        return cookie(for: token)
    }

    /// The cookie of `token`'s rotated id, issued `now`: what ``cookieOnceStored(for:at:)`` sets,
    /// for a caller that lets the resolution go first.
    func cookie(rotating token: SessionToken, at now: Int64) -> Cookie {
        cookie(for: token.rotated(key: key, at: now))
    }

    /// The new identity of a browser that joins another shopper, stored already or not: the
    /// client goes on under an id no cookie carried before (``JoinCodeStore/join(hash:for:renamingTo:at:)``
    /// stores it), and the answer sets its cookie, so whoever held the old one reaches nothing
    /// of the shopper joined.
    public struct Renamed: Sendable {
        /// The id the client is stored under from the join on.
        public let clientID: String
        /// Its streams' key.
        public let liveKey: String
        /// The cookie to set on the join's answer.
        public let cookie: Cookie
    }

    /// A new identity for a browser's join, issued `now`.
    public func renamedClient(at now: Int64) -> Renamed {
        let token = SessionToken.issue(at: now, startsEmpty: false)
        let derived = derive(token)
        return Renamed(clientID: derived.rotatedClientID, liveKey: derived.rotatedLiveKey, cookie: cookie(rotating: token, at: now))
    }

    /// Signs `session`'s client out of this browser: its id is spent for good (a stored one,
    /// and the id an unstored one would have been stored under, so no cookie of it before or
    /// after rotation leads anywhere again); a shopper left without clients is deleted with
    /// its cart and searches (its orders stay, as records of sales). Returns the cookie of a
    /// new session to set instead.
    public func endSession(_ session: Session, at now: Int64) throws -> Cookie {
        try store.endClients([session.clientID], ofShopper: session.shopperID, spendingUnstored: session.clientID, at: now)
        return cookie(for: SessionToken.issue(at: now, startsEmpty: true))
    }

    /// The live key of the client stored under `clientID`, as its streams are tagged: for
    /// ending the streams of another device signed out.
    public func liveKey(ofClient clientID: String) -> String {
        Self.liveKey(ofClient: clientID, key: key)
    }

    /// The join code a stored nonce gives (``JoinCode/code(nonce:key:)``).
    public func joinCode(nonce: String) -> String {
        JoinCode.code(nonce: nonce, key: key)
    }

    /// What storage knows a join code by (``JoinCode/hash(_:key:)``).
    public func joinCodeHash(_ code: String) -> String {
        JoinCode.hash(code, key: key)
    }

    /// What ties a join's merged count to the client that joined, for the cart's "N items were
    /// added": a link with a count made up, or sent to anyone else, says nothing.
    public func joinedTag(merged: Int, ofClient clientID: String) -> String {
        Hex.encode(Array(key.authenticate("joined|\(clientID)|\(merged)".utf8).prefix(8)))
    }

    /// A name for a client in a page (a device's Sign out button), from which its id cannot be
    /// read back: a keyed hash of it.
    public func deviceHandle(ofClient clientID: String) -> String {
        Hex.encode(Array(key.authenticate("device|\(clientID)".utf8).prefix(12)))
    }

    /// Checks a state-changing request: its form must carry the session's CSRF token, and a
    /// browser's `Origin` (or, lacking it, `Referer`) must be this site.
    /// - Throws: ``HTTPError`` 403 otherwise.
    public func verify(_ request: Request, for session: Session) throws {
        guard let token = request.form["csrf"], ConstantTime.equals(token, session.csrfToken) else {
            throw HTTPError(.forbidden, "This form has expired or did not come from this shop. Reload the page and try again.")
        }
        guard Self.isSameOrigin(request) else {
            throw HTTPError(.forbidden, "This form was sent from another site.")
        }
    }

    /// Whether the request's `Origin` (or, lacking it, `Referer`) is this site; a request
    /// with neither passes.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let source = request.headers["Origin"] ?? request.headers["Referer"] else { return true }
        guard let host = request.headers["Host"] else { return false }
        for scheme in ["http://", "https://"] where source.hasPrefix(scheme) {
            let rest = source.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return authority.lowercased() == host.lowercased()
        }
        return false
    }

    /// What the cookie value yields, if its signature is right.
    private func verify(_ cookieValue: String) -> Derived? {
        if let known = verified.withLock({ $0[CookieKey(cookieValue)] }) { return known }
        guard let token = SessionToken(cookieValue: cookieValue, key: key) else { return nil }
        let entry = derive(token)
        verified.withLock { verified in
            // Forgetting everything now and then keeps the cache bounded and simple.
            if verified.count >= Self.verifiedCapacity { verified.removeAll(keepingCapacity: true) }
            verified[CookieKey(cookieValue)] = entry
        }
        return entry
    }

    private func derive(_ token: SessionToken) -> Derived {
        let rotatedID = token.rotated(key: key, at: token.issuedAt).id
        return Derived(token: token, clientID: SHA256.hexDigest(of: token.id), rotatedClientID: SHA256.hexDigest(of: rotatedID), key: key)
    }

    private static func csrfToken(for id: String, key: HMACKey) -> String {
        Hex.encode(Array(key.authenticate("csrf|\(id)".utf8).prefix(16)))
    }

    /// 128 bits of an HMAC of the stored id: unguessable without the secret, the same on every
    /// instance that shares it, and computable for any client or shopper from what is stored.
    static func liveKey(ofClient clientID: String, key: HMACKey) -> String {
        Hex.encode(Array(key.authenticate("live|client|\(clientID)".utf8).prefix(16)))
    }

    static func liveKey(ofShopper shopperID: String, key: HMACKey) -> String {
        Hex.encode(Array(key.authenticate("live|shopper|\(shopperID)".utf8).prefix(16)))
    }

    /// The live key of the shopper stored under `shopperID`, for migrations that make shoppers.
    static func liveKey(ofShopper shopperID: String, secret: [UInt8]) -> String {
        liveKey(ofShopper: shopperID, key: HMACKey(secret))
    }

    private func cookie(for token: SessionToken) -> Cookie {
        // Path=/ and no Domain, as the __Host- prefix requires.
        Cookie(
            name: cookieName,
            value: token.cookieValue(key: key),
            path: "/",
            maxAge: Int(idleLifetime),
            httpOnly: true,
            secure: secureCookies,
            sameSite: .lax
        )
    }
}
