import MicroHTTP
import Synchronization

/// Finds the session a request belongs to, or begins a new one, and guards forms against
/// cross-site request forgery.
///
/// A session's id lives only in its cookie. Storage knows it by the SHA-256 of the id, so a
/// leaked database holds no id that a cookie could carry. A session is stored only with its
/// first change, and then under a new id (the cookie's id ``SessionToken/rotated(key:at:)``),
/// whose cookie that change's answer sets: an id someone planted on a browser before it
/// stored anything never reaches what the browser stores once ``spentCookieGrace`` is over;
/// then the cookie of the old id is spent: it leads to a new, empty session.
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
        /// The token of the request's cookie, or of the new session.
        fileprivate let token: SessionToken
    }

    /// What a token yields under the secret, for its own id and for the id it rotates to; all
    /// of it is a pure function of the token and the secret. A class, so taking one from the
    /// cache retains one object rather than each of its strings.
    private final class Derived: Sendable {
        let token: SessionToken
        let storageID: String
        let csrfToken: String
        let liveKey: String
        let rotatedStorageID: String
        let rotatedCSRFToken: String
        let rotatedLiveKey: String

        init(
            token: SessionToken, storageID: String, csrfToken: String, liveKey: String,
            rotatedStorageID: String, rotatedCSRFToken: String, rotatedLiveKey: String
        ) {
            self.token = token
            self.storageID = storageID
            self.csrfToken = csrfToken
            self.liveKey = liveKey
            self.rotatedStorageID = rotatedStorageID
            self.rotatedCSRFToken = rotatedCSRFToken
            self.rotatedLiveKey = rotatedLiveKey
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
    private let store: any SessionStore
    /// The cart of a session that is not stored yet.
    private let catalog: CatalogSource
    private let key: HMACKey
    private let idleLifetime: Int64
    private let secureCookies: Bool
    /// Storing `last_seen` on every request would turn every page view into a write.
    private let touchInterval: Int64 = 300
    /// Cookies already verified, with what they yield: computing it is most of a session's
    /// cost per request.
    private let verified = Mutex<[CookieKey: Derived]>([:])
    private static let verifiedCapacity = 10_000

    init(store: any SessionStore, secret: [UInt8], catalog: CatalogSource, idleLifetime: Int64, secureCookies: Bool) {
        self.store = store
        self.catalog = catalog
        key = HMACKey(secret)
        self.idleLifetime = idleLifetime
        self.secureCookies = secureCookies
        cookieName = secureCookies ? Self.hostOnlyCookieName : Self.cookieName
    }

    /// The session of `request`, with its cart. A missing, duplicated, forged, altered,
    /// expired or spent cookie gets a new session with a new random id, never someone else's.
    public func resolve(_ request: Request, at now: Int64) throws -> Resolution {
        if let value = SessionCookie.soleValue(named: cookieName, in: request.headers.values(named: "Cookie")), let derived = verify(value),
           let resolution = try resolveIssued(derived, at: now) {
            return resolution
        }
        let token = SessionToken.issue(at: now)
        let derived = derive(token)
        let session = Session(
            storageID: derived.rotatedStorageID, createdAt: now, displayName: Session.defaultDisplayName, isStored: false,
            csrfToken: derived.rotatedCSRFToken, liveKey: derived.liveKey, storedLiveKey: derived.rotatedLiveKey
        )
        return Resolution(session: session, cart: catalog.current.starterCart, cartVersion: 0, cookie: cookie(for: token), isNew: true, token: token)
    }

    /// The session of a cookie this server signed, or `nil` when it no longer leads anywhere.
    private func resolveIssued(_ derived: Derived, at now: Int64) throws -> Resolution? {
        let token = derived.token
        if let stored = try store.session(storageID: derived.storageID) {
            guard stored.lastSeen >= now - idleLifetime else { return nil }
            var session = Session(
                storageID: derived.storageID, createdAt: stored.createdAt, displayName: stored.displayName, isStored: true,
                csrfToken: derived.csrfToken, liveKey: derived.liveKey, storedLiveKey: derived.liveKey
            )
            session.preferences = stored.preferences
            session.newestSearch = stored.newestSearch
            let renews = now - stored.lastSeen >= touchInterval
            if renews { try store.touch(storageID: derived.storageID, at: now) }
            // Renewing the cookie keeps an active session alive past its first Max-Age.
            return Resolution(
                session: session, cart: stored.cart, cartVersion: stored.cartVersion, cookie: renews ? cookie(for: token) : nil,
                isNew: false, token: token
            )
        }
        guard token.issuedAt >= now - idleLifetime else { return nil }
        if let stored = try store.session(storageID: derived.rotatedStorageID) {
            return resolveSpent(derived, stored: stored, at: now)
        }
        let session = Session(
            storageID: derived.rotatedStorageID, createdAt: token.issuedAt, displayName: Session.defaultDisplayName,
            isStored: false, csrfToken: derived.rotatedCSRFToken, liveKey: derived.liveKey, storedLiveKey: derived.rotatedLiveKey
        )
        return Resolution(session: session, cart: catalog.current.starterCart, cartVersion: 0, cookie: nil, isNew: false, token: token)
    }

    /// The session of a cookie whose first change stored the session under its rotated id.
    ///
    /// For ``spentCookieGrace`` after the cookie was issued it still reaches that session, and
    /// each answer sets the rotated cookie again: requests already on their way when the first
    /// change committed, and clients slow to take a new cookie, must not lose their work (or
    /// get 403 for a form that was right when it was rendered). After that the cookie is spent
    /// and leads to a new session, so an id planted on a browser reaches what it stored only
    /// if it is used within that time.
    private func resolveSpent(_ derived: Derived, stored: StoredSession, at now: Int64) -> Resolution? {
        guard now - derived.token.issuedAt < Self.spentCookieGrace, stored.lastSeen >= now - idleLifetime else { return nil }
        var session = Session(
            storageID: derived.rotatedStorageID, createdAt: stored.createdAt, displayName: stored.displayName, isStored: true,
            csrfToken: derived.rotatedCSRFToken, liveKey: derived.rotatedLiveKey, storedLiveKey: derived.rotatedLiveKey
        )
        session.preferences = stored.preferences
        session.newestSearch = stored.newestSearch
        let rotated = derived.token.rotated(key: key, at: now)
        return Resolution(
            session: session, cart: stored.cart, cartVersion: stored.cartVersion, cookie: cookie(for: rotated), isNew: false, token: rotated
        )
    }

    /// How long a cookie whose session was stored under a rotated id still reaches it,
    /// counted from the cookie's issue (seconds).
    static let spentCookieGrace: Int64 = 300

    /// The cookie to set on the answer to a change that stores `resolution`'s session: its
    /// rotated id's. `nil` when the session was stored already.
    public func cookieOnceStored(for resolution: Resolution, at now: Int64) -> Cookie? {
        guard !resolution.session.isStored else { return nil }
        return cookie(for: resolution.token.rotated(key: key, at: now))
    }

    /// Ends `session` in this browser: deletes what is stored of it (its orders stay, as
    /// records of sales) and returns the cookie of a new session to set instead. The old
    /// cookie then reaches nothing of it.
    public func endSession(_ session: Session, at now: Int64) throws -> Cookie {
        if session.isStored { try store.deleteSession(storageID: session.storageID) }
        return cookie(for: SessionToken.issue(at: now))
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

    private static func isSameOrigin(_ request: Request) -> Bool {
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
        return Derived(
            token: token,
            storageID: SHA256.hexDigest(of: token.id), csrfToken: csrfToken(for: token.id), liveKey: liveKey(for: token.id),
            rotatedStorageID: SHA256.hexDigest(of: rotatedID), rotatedCSRFToken: csrfToken(for: rotatedID),
            rotatedLiveKey: liveKey(for: rotatedID)
        )
    }

    private func csrfToken(for id: String) -> String {
        Hex.encode(Array(key.authenticate("csrf|\(id)".utf8).prefix(16)))
    }

    /// 128 bits of an HMAC of the id: unguessable without the secret, the same on every
    /// instance that shares it.
    private func liveKey(for id: String) -> String {
        Hex.encode(Array(key.authenticate("live|\(id)".utf8).prefix(16)))
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
