import MicroHTTP
import Synchronization

/// Finds the session a request belongs to, or begins a new one, and guards forms against
/// cross-site request forgery.
public final class SessionManager: Sendable {
    /// The session cookie's name.
    public static let cookieName = "quickcart_session"

    /// A request's session with its cart, read together, and the cookie to set when the
    /// session is new.
    public struct Resolution: Sendable {
        public var session: Session
        /// The session's cart: the starter cart while the session is not stored.
        public var cart: Cart
        /// The cart's version (0 while the session is not stored).
        public var cartVersion: Int64
        public var cookie: Cookie?
    }

    /// What a cookie's verification yields; all of it is a pure function of the cookie and the secret.
    private struct Verified {
        let token: SessionToken
        let csrfToken: String
        let liveKey: String
    }

    private let store: any SessionStore
    /// Gives the cart of a session that is not stored yet (it follows the catalog).
    private let catalog: CatalogSource
    private let key: HMACKey
    private let idleLifetime: Int64
    private let secureCookies: Bool
    /// Storing `last_seen` on every request would turn every page view into a write.
    private let touchInterval: Int64 = 300
    /// Cookies already verified, with their CSRF tokens and live keys: all are pure functions
    /// of the cookie and the secret, and computing them is most of a session's cost per request.
    private let verified = Mutex<[String: Verified]>([:])
    private static let verifiedCapacity = 10_000

    init(store: any SessionStore, secret: [UInt8], catalog: CatalogSource, idleLifetime: Int64, secureCookies: Bool) {
        self.store = store
        self.catalog = catalog
        key = HMACKey(secret)
        self.idleLifetime = idleLifetime
        self.secureCookies = secureCookies
    }

    /// The session of `request`, with its cart, in one read of the store. A missing, forged,
    /// altered or expired cookie gets a new session with a new random id, never someone else's.
    public func resolve(_ request: Request, at now: Int64) throws -> Resolution {
        if let value = request.cookies[Self.cookieName], let verified = verify(value) {
            let token = verified.token
            if let stored = try store.session(id: token.id) {
                if stored.lastSeen >= now - idleLifetime {
                    var session = Session(
                        id: token.id, createdAt: stored.createdAt, displayName: stored.displayName, isStored: true,
                        csrfToken: verified.csrfToken, liveKey: verified.liveKey
                    )
                    session.preferences = stored.preferences
                    var resolution = Resolution(session: session, cart: stored.cart, cartVersion: stored.cartVersion)
                    guard now - stored.lastSeen >= touchInterval else { return resolution }
                    try store.touch(sessionID: token.id, at: now)
                    // Renewing the cookie keeps an active session alive past its first Max-Age.
                    resolution.cookie = cookie(for: token)
                    return resolution
                }
            } else if token.issuedAt >= now - idleLifetime {
                let session = Session(
                    id: token.id, createdAt: token.issuedAt, displayName: Session.defaultDisplayName, isStored: false,
                    csrfToken: verified.csrfToken, liveKey: verified.liveKey
                )
                return Resolution(session: session, cart: catalog.current.starterCart, cartVersion: 0)
            }
        }
        let token = SessionToken.issue(at: now)
        let session = Session(
            id: token.id, createdAt: now, displayName: Session.defaultDisplayName, isStored: false,
            csrfToken: csrfToken(for: token.id), liveKey: liveKey(for: token.id)
        )
        return Resolution(session: session, cart: catalog.current.starterCart, cartVersion: 0, cookie: cookie(for: token))
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

    /// The token in a cookie value with the session's CSRF token and live key, if the
    /// signature is right.
    private func verify(_ cookieValue: String) -> Verified? {
        if let known = verified.withLock({ $0[cookieValue] }) { return known }
        guard let token = SessionToken(cookieValue: cookieValue, key: key) else { return nil }
        let entry = Verified(token: token, csrfToken: csrfToken(for: token.id), liveKey: liveKey(for: token.id))
        verified.withLock { verified in
            // Forgetting everything now and then keeps the cache bounded and simple.
            if verified.count >= Self.verifiedCapacity { verified.removeAll(keepingCapacity: true) }
            verified[cookieValue] = entry
        }
        return entry
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
        Cookie(
            name: Self.cookieName,
            value: token.cookieValue(key: key),
            path: "/",
            maxAge: Int(idleLifetime),
            httpOnly: true,
            secure: secureCookies,
            sameSite: .lax
        )
    }
}
