import MicroHTTP
import Synchronization

/// Finds the session a request belongs to, or begins a new one, and guards forms against
/// cross-site request forgery.
public final class SessionManager: Sendable {
    /// The session cookie's name.
    public static let cookieName = "quickcart_session"

    /// A request's session, and the cookie to set when the session is new.
    public struct Resolution: Sendable {
        public var session: Session
        public var cookie: Cookie?
    }

    private let store: SessionStore
    private let key: HMACKey
    private let idleLifetime: Int64
    private let secureCookies: Bool
    /// Storing `last_seen` on every request would turn every page view into a write.
    private let touchInterval: Int64 = 300
    /// Cookies already verified, with their CSRF tokens: both are pure functions of the cookie
    /// and the secret, and computing them is most of a session's cost per request.
    private let verified = Mutex<[String: (token: SessionToken, csrfToken: String)]>([:])
    private static let verifiedCapacity = 10_000

    init(store: SessionStore, secret: [UInt8], idleLifetime: Int64, secureCookies: Bool) {
        self.store = store
        key = HMACKey(secret)
        self.idleLifetime = idleLifetime
        self.secureCookies = secureCookies
    }

    /// The session of `request`. A missing, forged, altered or expired cookie gets a new
    /// session with a new random id, never someone else's.
    public func resolve(_ request: Request, at now: Int64) throws -> Resolution {
        if let value = request.cookies[Self.cookieName], let (token, csrfToken) = verify(value) {
            if let record = try store.record(id: token.id) {
                if record.lastSeen >= now - idleLifetime {
                    var session = Session(id: token.id, createdAt: record.createdAt, displayName: record.displayName, isStored: true, csrfToken: csrfToken)
                    session.preferences = record.preferences
                    guard now - record.lastSeen >= touchInterval else { return Resolution(session: session) }
                    try store.touch(id: token.id, at: now)
                    // Renewing the cookie keeps an active session alive past its first Max-Age.
                    return Resolution(session: session, cookie: cookie(for: token))
                }
            } else if token.issuedAt >= now - idleLifetime {
                let session = Session(id: token.id, createdAt: token.issuedAt, displayName: Session.defaultDisplayName, isStored: false, csrfToken: csrfToken)
                return Resolution(session: session)
            }
        }
        let token = SessionToken.issue(at: now)
        let session = Session(id: token.id, createdAt: now, displayName: Session.defaultDisplayName, isStored: false, csrfToken: csrfToken(for: token.id))
        return Resolution(session: session, cookie: cookie(for: token))
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

    /// The token in a cookie value and the session's CSRF token, if the signature is right.
    private func verify(_ cookieValue: String) -> (token: SessionToken, csrfToken: String)? {
        if let known = verified.withLock({ $0[cookieValue] }) { return known }
        guard let token = SessionToken(cookieValue: cookieValue, key: key) else { return nil }
        let entry = (token: token, csrfToken: csrfToken(for: token.id))
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
