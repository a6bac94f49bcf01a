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
        Request(method: .get, path: "/", cookies: cookie.map { [SessionManager.cookieName: $0] } ?? [:])
    }

    @Test("A session's live key is a keyed hash: stable for the session, unlike the id, different per session and per secret")
    func liveKeys() throws {
        let storage = try StoreBackend.sqlite.makeLocation().open()
        defer { storage.close() }
        let now = TestSessions.start
        let manager = Self.manager(secret: Array(repeating: 7, count: 32), storage: storage)
        let first = try manager.resolve(Self.request(cookie: nil), at: now)
        let cookie = try #require(first.cookie?.value)
        let key = first.session.liveKey
        #expect(key.count == 32 && key.allSatisfy(\.isHexDigit), "\(key)")
        #expect(key != first.session.id && !key.contains(first.session.id.prefix(8)))

        #expect(try manager.resolve(Self.request(cookie: cookie), at: now + 1).session.liveKey == key, "the same cookie, another request")
        // Stored, the session keeps its key (a change published then reaches streams opened before).
        try storage.sessions.setDisplayName("Ada", for: first.session, at: now)
        #expect(try manager.resolve(Self.request(cookie: cookie), at: now + 2).session.liveKey == key)

        let other = try manager.resolve(Self.request(cookie: nil), at: now)
        #expect(other.session.liveKey != key)
        // Another shop cannot compute this session's key: its secret differs.
        let forged = Self.manager(secret: Array(repeating: 8, count: 32), storage: storage)
        let replayed = try forged.resolve(Self.request(cookie: cookie), at: now)
        #expect(replayed.session.id != first.session.id && replayed.session.liveKey != key)
    }
}
