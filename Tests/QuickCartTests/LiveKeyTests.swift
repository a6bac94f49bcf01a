import MicroHTTP
@testable import QuickCart
import Testing

/// The live key names a session's badge wherever news about it travels, in place of its
/// secret id.
@Suite("Live keys")
struct LiveKeyTests {
    private static func manager(secret: [UInt8], storage: any ShopStorage) -> SessionManager {
        SessionManager(store: storage.sessions, secret: secret, catalog: storage.catalog, idleLifetime: 3600, secureCookies: false)
    }

    private static func request(cookie: String?) -> Request {
        Request(method: .get, path: "/", headers: cookie.map { ["Cookie": "\(SessionManager.cookieName)=\($0)"] } ?? [:])
    }

    @Test("A session's live key is a keyed hash: stable for its cookie, different per session and per secret")
    func liveKeys() throws {
        let storage = try StoreBackend.sqlite.makeLocation().open()
        defer { storage.close() }
        let now = TestSessions.start
        let manager = Self.manager(secret: Array(repeating: 7, count: 32), storage: storage)
        let first = try manager.resolve(Self.request(cookie: nil), at: now)
        let cookie = try #require(first.cookie?.value)
        let id = String(cookie.prefix { $0 != "." })
        let key = first.session.liveKey
        #expect(key.count == 32 && key.allSatisfy(\.isHexDigit), "\(key)")
        #expect(!key.contains(id.prefix(8)) && !first.session.storageID.contains(id.prefix(8)))
        #expect(try manager.resolve(Self.request(cookie: cookie), at: now + 1).session.liveKey == key, "the same cookie, another request")
        #expect(first.session.storedLiveKey != key, "storing moves the session to another id, with another key")

        let other = try manager.resolve(Self.request(cookie: nil), at: now)
        #expect(other.session.liveKey != key)
        // Another shop cannot compute this session's key: its secret differs.
        let forged = Self.manager(secret: Array(repeating: 8, count: 32), storage: storage)
        let replayed = try forged.resolve(Self.request(cookie: cookie), at: now)
        #expect(replayed.isNew && replayed.session.storageID != first.session.storageID && replayed.session.liveKey != key)
    }

    @Test("Stored by its first change, a session moves to a new id: its key is the one announced, its CSRF token stays, the old cookie is spent after a grace")
    func storingRotatesTheID() throws {
        let storage = try StoreBackend.sqlite.makeLocation().open()
        defer { storage.close() }
        let now = TestSessions.start
        let manager = Self.manager(secret: Array(repeating: 7, count: 32), storage: storage)
        let first = try manager.resolve(Self.request(cookie: nil), at: now)
        let cookie = try #require(first.cookie?.value)
        try storage.sessions.setDisplayName("Ada", for: first.session, at: now)
        let rotated = try #require(manager.cookieOnceStored(for: first, at: now)?.value)
        #expect(rotated.prefix { $0 != "." } != cookie.prefix { $0 != "." }, "the stored session needs a new id")

        let stored = try manager.resolve(Self.request(cookie: rotated), at: now + 1)
        #expect(stored.session.isStored && stored.session.displayName == "Ada" && !stored.isNew)
        #expect(stored.session.liveKey == first.session.storedLiveKey && stored.session.storedLiveKey == stored.session.liveKey)
        #expect(stored.session.csrfToken == first.session.csrfToken, "forms of the session's other tabs still work")
        #expect(manager.cookieOnceStored(for: stored, at: now + 1) == nil)

        let late = try manager.resolve(Self.request(cookie: cookie), at: now + 1)
        #expect(late.session.isStored && late.session.storageID == stored.session.storageID && late.session.displayName == "Ada",
                "a request sent with the old cookie soon after still reaches the stored session")
        #expect(late.session.csrfToken == first.session.csrfToken && late.session.liveKey == stored.session.liveKey)
        #expect(late.cookie.map { $0.value.prefix { $0 != "." } } == rotated.prefix { $0 != "." }, "and is given the new cookie again")

        let spent = try manager.resolve(Self.request(cookie: cookie), at: now + SessionManager.spentCookieGrace)
        #expect(spent.isNew && !spent.session.isStored && spent.session.displayName == Session.defaultDisplayName, "then the old cookie leads nowhere")
        #expect(spent.session.storageID != stored.session.storageID && spent.session.csrfToken != stored.session.csrfToken)
    }
}
