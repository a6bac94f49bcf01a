import PostgresTesting
@testable import QuickCart
import Testing

/// A storage backend the store tests run against. Every store test takes each case in turn,
/// so another backend is one more case here (and in ``makeLocation()``), nothing else.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A new, empty place for a shop's data, of this backend; removed when the value goes.
    func makeLocation() throws -> StoreLocation {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            return StoreLocation(database: directory.path + "/stores.sqlite", keeping: directory)
        case .postgres:
            // A database of its own on the server shared by the test process.
            let server = try TestPostgresServer.shared()
            return StoreLocation(database: try server.makeDatabase(prefix: "stores"), keeping: server)
        }
    }
}

/// Where one test's data lives: what `--db` would name. It may be opened more than once, to
/// check what survives a restart.
final class StoreLocation {
    /// The `--db` value.
    let database: String
    /// Whatever must live as long as the data (a temporary directory, a test database).
    private let resource: AnyObject

    init(database: String, keeping resource: AnyObject) {
        self.database = database
        self.resource = resource
    }

    /// Opens storage here through the app's own factory, as `quickcart --db` would.
    func open(emptyCarts: Bool = false) throws -> any ShopStorage {
        var configuration = Configuration()
        configuration.databasePath = database
        configuration.emptyCarts = emptyCarts
        return try Storage.open(configuration, connections: 4)
    }
}

/// Sessions as ``SessionManager`` makes them, for tests that talk to the stores directly.
enum TestSessions {
    /// A session that is not stored yet, with a fresh client id (64 hex digits, as a SHA-256)
    /// and the id of the new shopper its first change stores.
    static func new(createdAt: Int64 = TestSessions.start) -> Session {
        let id = randomID(), shopper = randomID()
        return Session(
            clientID: id, shopperID: shopper, createdAt: createdAt, displayName: Session.defaultDisplayName, isStored: false,
            csrfToken: "csrf-" + id, liveKey: "live-" + id, shopperLiveKey: "live-shopper-" + shopper
        )
    }

    /// Another client of `session`'s shopper, not stored yet as a client.
    static func anotherClient(of session: Session) -> Session {
        let id = randomID()
        return Session(
            clientID: id, shopperID: session.shopperID, createdAt: session.createdAt, displayName: session.displayName, isStored: true,
            csrfToken: "csrf-" + id, liveKey: "live-" + id, shopperLiveKey: session.shopperLiveKey
        )
    }

    private static func randomID() -> String {
        (0..<32).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }

    /// The same session, as a request that found it stored would see it.
    static func stored(_ session: Session) -> Session {
        var stored = session
        stored.isStored = true
        return stored
    }

    /// A moment the tests start at (seconds since 1970).
    static let start: Int64 = 1_790_000_000
}

extension SessionStore {
    /// What is stored of `session`'s client and shopper, or `nil` when nothing is, or the
    /// client was signed out.
    func stored(_ session: Session) throws -> StoredSession? {
        guard case .active(let stored) = try self.session(clientID: session.clientID) else { return nil }
        return stored
    }
}

extension ShopStorage {
    /// The current catalog's product with `slug`; the test stops here when there is none.
    func product(_ slug: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Product {
        try #require(liveCatalog.current.catalog.product(slug: slug), "no product \(slug)", sourceLocation: sourceLocation)
    }
}
