import MicroHTTP
@testable import QuickCart
import Testing

/// The live key names a session's badge wherever news about it travels, in place of its
/// secret id.
@Suite("Live keys")
struct LiveKeyTests {
    private static func manager(secret: [UInt8] = Array(repeating: 7, count: 32), storage: any ShopStorage) -> SessionManager {
        SessionManager(store: storage.sessions, secret: secret, liveCatalog: storage.liveCatalog, idleLifetime: 3600, secureCookies: false)
    }

    private static func request(cookie: String?) -> Request {
        Request(method: .get, path: "/", headers: cookie.map { ["Cookie": "\(SessionManager.cookieName)=\($0)"] } ?? [:])
    }

    /// A session manager on `storage`, a new client as a request with no cookie at
    /// `TestSessions.start` makes it, and the cookie it is given.
    private static func newClient(on storage: any ShopStorage) throws -> (SessionManager, SessionManager.Resolution, cookie: String) {
        let manager = Self.manager(storage: storage)
        let first = try manager.resolve(request(cookie: nil), at: TestSessions.start)
        return (manager, first, try #require(first.cookie?.value))
    }

    private let now = TestSessions.start

    @Test("A client's and a shopper's live keys are keyed hashes: stable for the cookie, different per session and per secret")
    func liveKeys() throws {
        let storage = try StoreBackend.sqlite.makeLocation().open()
        defer { storage.close() }
        let (manager, first, cookie) = try Self.newClient(on: storage)
        let id = String(cookie.prefix { $0 != "." })
        let key = first.session.liveKey
        #expect(key.count == 32 && key.allSatisfy(\.isHexDigit), "\(key)")
        #expect(!key.contains(id.prefix(8)) && !first.session.clientID.contains(id.prefix(8)) && !first.session.shopperID.contains(id.prefix(8)))
        #expect(first.session.shopperLiveKey != key && first.session.shopperID != first.session.clientID)
        let again = try manager.resolve(Self.request(cookie: cookie), at: now + 1).session
        #expect(again.liveKey == key && again.shopperLiveKey == first.session.shopperLiveKey, "the same cookie, another request")

        let other = try manager.resolve(Self.request(cookie: nil), at: now)
        #expect(other.session.liveKey != key && other.session.shopperLiveKey != first.session.shopperLiveKey)
        // Another shop cannot compute this session's keys: its secret differs.
        let forged = Self.manager(secret: Array(repeating: 8, count: 32), storage: storage)
        let replayed = try forged.resolve(Self.request(cookie: cookie), at: now)
        #expect(replayed.isNew && replayed.session.clientID != first.session.clientID && replayed.session.liveKey != key)
    }

    @Test("Stored by its first change, a client moves to a new id under the shopper it announced; its CSRF token stays, the old cookie is spent after a grace and never renewed")
    func storingRotatesTheID() throws {
        let storage = try StoreBackend.sqlite.makeLocation().open()
        defer { storage.close() }
        let (manager, first, cookie) = try Self.newClient(on: storage)
        try storage.sessions.setDisplayName("Ada", for: first.session, at: now)
        let rotated = try #require(manager.cookieOnceStored(for: first, at: now)?.value)
        #expect(rotated.prefix { $0 != "." } != cookie.prefix { $0 != "." }, "the stored client needs a new id")

        let stored = try manager.resolve(Self.request(cookie: rotated), at: now + 1)
        #expect(stored.session.isStored && stored.session.displayName == "Ada" && !stored.isNew)
        #expect(stored.session.liveKey == first.session.liveKey && stored.session.shopperLiveKey == first.session.shopperLiveKey)
        #expect(stored.session.shopperID == first.session.shopperID && stored.session.clientID == first.session.clientID)
        #expect(stored.session.csrfToken == first.session.csrfToken, "forms of the session's other tabs still work")
        #expect(manager.cookieOnceStored(for: stored, at: now + 1) == nil)

        let late = try manager.resolve(Self.request(cookie: cookie), at: now + 1)
        #expect(late.session.isStored && late.session.clientID == stored.session.clientID && late.session.displayName == "Ada",
                "a request sent with the old cookie soon after still reaches the stored client")
        #expect(late.session.csrfToken == first.session.csrfToken && late.session.liveKey == stored.session.liveKey)
        #expect(late.session.isGraceCookie && !stored.session.isGraceCookie)
        // Issue 20, finding 3: the grace answers requests in flight; it never hands the old
        // cookie a new one, which would turn five minutes into thirty days.
        #expect(late.cookie == nil, "the old cookie was given a cookie: \(late.cookie.map(\.value) ?? "")")
        let later = try manager.resolve(Self.request(cookie: cookie), at: now + SessionManager.spentCookieGrace - 1)
        #expect(later.cookie == nil && later.session.isStored)

        let spent = try manager.resolve(Self.request(cookie: cookie), at: now + SessionManager.spentCookieGrace)
        #expect(spent.isNew && !spent.session.isStored && spent.session.displayName == Session.defaultDisplayName, "then the old cookie leads nowhere")
        #expect(spent.session.clientID != stored.session.clientID && spent.session.csrfToken != stored.session.csrfToken)
    }

    @Test(
        "Signing out spends the client's ids for good: neither cookie, before or after rotation, reaches anything, within the grace or after it",
        arguments: StoreBackend.allCases
    )
    func signOutSpendsEveryID(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open()
        defer { storage.close() }
        let (manager, first, before) = try Self.newClient(on: storage)
        try storage.sessions.setDisplayName("Ada", for: first.session, at: now)
        let after = try #require(manager.cookieOnceStored(for: first, at: now)?.value)
        let stored = try manager.resolve(Self.request(cookie: after), at: now + 1)
        _ = try manager.endSession(stored.session, at: now + 2)
        #expect(try storage.sessions.session(clientID: stored.session.clientID) == .spent, "\(backend)")
        for moment in [now + 3, now + SessionManager.spentCookieGrace + 1, now + 3000] {
            for cookie in [before, after] {
                let again = try manager.resolve(Self.request(cookie: cookie), at: moment)
                #expect(again.isNew && !again.session.isStored && again.session.shopperID != stored.session.shopperID,
                        "\(backend): a cookie of the signed-out client still leads somewhere at +\(moment - now) s")
            }
        }
    }
}
