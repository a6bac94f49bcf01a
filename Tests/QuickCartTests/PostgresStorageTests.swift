import Dispatch
import Foundation
@testable import MicroHTTP
import Postgres
import PostgresTesting
@testable import QuickCart
import Synchronization
import Testing

/// What only a storage that several instances share must do: one schema and one secret for
/// all, the badge carried between them, one purge across them, and recovery from an outage.
@Suite("PostgreSQL storage shared by instances")
struct PostgresStorageTests {
    @Test("Passing failures, named by their SQLSTATE, are unavailable storage; others pass through", arguments: [
        ("53100", true), ("53200", true), ("25006", true), ("57014", true), ("55P03", true), ("40001", true), ("40P01", true),
        ("57P01", true), ("08006", true), ("23505", false), ("42601", false), ("22P02", false),
    ])
    func passingFailuresAreUnavailable(state: String, passing: Bool) {
        let failure = PostgresError(kind: .server, sqlState: state, message: "m", operation: "execute")
        do {
            try PostgresStoragePool.mapping { throw failure }
        } catch let error as StorageError {
            #expect(passing, "\(state) became \(error)")
        } catch let error as PostgresError {
            #expect(!passing && error.sqlState == state, "\(state) passed through")
        } catch {
            Issue.record("\(state): \(error)")
        }
    }

    private let now = TestSessions.start

    private static func open(_ url: String, emptyCarts: Bool = false) throws -> any ShopStorage {
        var configuration = Configuration()
        configuration.databasePath = url
        configuration.emptyCarts = emptyCarts
        return try Storage.open(configuration, connections: 4)
    }

    /// Two instances of one shop, on a new database of their own.
    private static func twoInstances(prefix: String) throws -> (any ShopStorage, any ShopStorage) {
        let url = try TestPostgresServer.shared().makeDatabase(prefix: prefix)
        return (try open(url), try open(url))
    }

    @Test("A libpq keyword/value connection string opens PostgreSQL, as its URL does")
    func keywordValueConnectionString() throws {
        let server = try TestPostgresServer.shared()
        let url = try server.makeDatabase(prefix: "keywords")
        let name = try #require(url.split(separator: "/").last?.split(separator: "?").first)
        var configuration = Configuration()
        configuration.databasePath = "host=127.0.0.1 port=\(server.port) user=postgres dbname=\(name) connect_timeout=30"
        // Not creating: were the string taken for a SQLite file name, nothing would be made of it.
        let storage = try Storage.open(configuration, connections: 2, creatingDatabase: false)
        defer { storage.close() }
        #expect(storage is PostgresStorage)
        #expect(try storage.sessionSecret().count > 0)
    }

    @Test("Instances opening a new database together migrate it once and share one secret")
    func openingTogether() throws {
        let url = try TestPostgresServer.shared().makeDatabase(prefix: "together")
        let opened = Mutex<[Result<[UInt8], any Error>]>([])
        let storages = Mutex<[any ShopStorage]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = Result { () throws -> [UInt8] in
                let storage = try Self.open(url)
                storages.withLock { $0.append(storage) }
                return try storage.sessionSecret()
            }
            opened.withLock { $0.append(result) }
        }
        defer { for storage in storages.withLock({ $0 }) { storage.close() } }
        let secrets = try opened.withLock { $0 }.map { try $0.get() }
        #expect(secrets.count == 4)
        #expect(Set(secrets).count == 1, "instances made different secrets")
        let connection = try PostgresConnection(connectionString: url)
        defer { connection.close() }
        #expect(try connection.fetchValue("SELECT count(*) FROM schema_migrations", as: Int.self) == PostgresSchema.migrator.migrationNames.count)
        #expect(try connection.fetchValue("SELECT count(*) FROM products", as: Int.self) == CatalogSeed.products.count)
    }

    @Test("A change committed through one instance reaches the streams of another; a refused one sends nothing")
    func badgeCrossesInstances() throws {
        let (first, second) = try Self.twoInstances(prefix: "badge")
        defer { first.close(); second.close() }
        let hub = BadgeHub()
        _ = first.badgePublisher(deliveringTo: BadgeHub())
        _ = second.badgePublisher(deliveringTo: hub)
        let tent = try first.product("ultralight-tent")
        let session = TestSessions.new()
        let stream = EventStream()
        // Ended as the server ends a stream whose client left: the hub lets go of it.
        defer { stream.finish() }
        hub.subscribe(stream, liveKey: session.shopperLiveKey, client: session.liveKey, current: CartChange(itemCount: 3, version: 0), wantsTexts: true)
        _ = stream.drainedText()

        #expect(throws: CartError.notInCart) { try first.carts.setQuantity(3, of: tent.id, for: session, at: now) }
        let change = try first.carts.add(productID: tent.id, for: session, at: now)
        #expect(change == CartChange(itemCount: 4, version: 1))
        let received = Self.wait(for: "data: 4", on: stream)
        #expect(received.contains("event: badge") && received.contains("id: 1"), "the other instance's stream got “\(received)”")
        #expect(!received.contains("data: 3"), "a refused change was sent: “\(received)”")
    }

    @Test("A change through one client reaches the streams of every client of the shopper, on every instance; a sign-out ends a client's streams everywhere")
    func streamsFollowTheShopper() throws {
        let (first, second) = try Self.twoInstances(prefix: "shopper")
        defer { first.close(); second.close() }
        let firstHub = BadgeHub(), secondHub = BadgeHub()
        let publisher = first.badgePublisher(deliveringTo: firstHub)
        _ = second.badgePublisher(deliveringTo: secondHub)
        let tent = try first.product("ultralight-tent")
        let phone = TestSessions.new()
        let laptop = TestSessions.anotherClient(of: phone)
        let here = EventStream(), there = EventStream()
        defer { here.finish(); there.finish() }
        firstHub.subscribe(here, liveKey: phone.shopperLiveKey, client: phone.liveKey, current: CartChange(itemCount: 3, version: 0))
        secondHub.subscribe(there, liveKey: laptop.shopperLiveKey, client: laptop.liveKey, current: CartChange(itemCount: 3, version: 0))
        _ = here.drainedText()
        _ = there.drainedText()

        let change = try first.carts.add(productID: tent.id, for: phone, at: now)
        publisher.publish(change, for: phone)
        #expect(Self.wait(for: "data: 4", on: here).contains("data: 4"))
        #expect(Self.wait(for: "data: 4", on: there).contains("data: 4"), "the other client's stream on the other instance heard nothing")
        let later = try first.carts.add(productID: tent.id, for: TestSessions.stored(phone), at: now)
        #expect(later == CartChange(itemCount: 5, version: 2))
        #expect(Self.wait(for: "data: 5", on: there).contains("data: 5"))

        publisher.endStreams(ofClients: [laptop.liveKey])
        let deadline = ContinuousClock.now + .seconds(5)
        while !there.isClosed, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(there.isClosed, "the signed-out client's stream on the other instance stayed open")
        #expect(!here.isClosed)
    }

    @Test("When its listener reconnects, an instance sends its open streams their shoppers' counts")
    func listenerReconnectResends() throws {
        let url = try TestPostgresServer.shared().makeDatabase(prefix: "resend")
        let first = try Self.open(url), second = try Self.open(url)
        defer { first.close(); second.close() }
        let hub = BadgeHub()
        _ = second.badgePublisher(deliveringTo: hub)
        let tent = try first.product("ultralight-tent")
        let fresh = TestSessions.new()
        let session = fresh
        _ = try first.carts.add(productID: tent.id, for: session, at: now)
        // A stream that missed the news: it shows the count of its page.
        let stream = EventStream()
        defer { stream.finish() }
        hub.subscribe(stream, liveKey: session.shopperLiveKey, client: session.liveKey, current: CartChange(itemCount: 3, version: 0), wantsTexts: true)
        _ = stream.drainedText()

        let admin = try PostgresConnection(connectionString: url)
        defer { admin.close() }
        let ended = try admin.fetchValue(
            """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
            """,
            as: Int.self
        )
        #expect(ended == 1)
        let resent = Self.wait(for: "data: 4", on: stream, timeout: 10)
        #expect(resent.contains("event: badge") && resent.contains("data: 4"), "after the reconnection the stream got “\(resent)”")
        #expect(Self.wait(for: "4 items", on: stream, timeout: 1, after: resent).contains(#"event: badge-text\#ndata: {"badge":"4","count":4,"items":"4 items"}"#),
                "the texts follow the resent count")
        // The stream goes on following the stored shopper.
        _ = try first.carts.add(productID: tent.id, for: TestSessions.stored(fresh), at: now)
        #expect(Self.wait(for: "data: 5", on: stream).contains("data: 5"))
    }

    @Test("Changes to one cart through several instances at once all count")
    func concurrentChangesThroughInstances() throws {
        let url = try TestPostgresServer.shared().makeDatabase(prefix: "concurrent")
        let storages = try (0..<3).map { _ in try Self.open(url) }
        defer { for storage in storages { storage.close() } }
        let shoes = try storages[0].product("trail-running-shoes"), tent = try storages[0].product("ultralight-tent")
        // Every instance stores the same new session with its first change, at once.
        let session = TestSessions.new()
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 9) { index in
            do {
                let storage = storages[index % 3]
                if index < 3 {
                    _ = try storage.carts.add(productID: tent.id, for: session, at: now)
                } else {
                    _ = try storage.carts.adjustQuantity(by: 1, of: shoes.id, for: session, at: now)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let stored = try #require(try storages[1].sessions.stored(session))
        #expect(stored.cart.quantity(of: tent.id) == 3)
        #expect(stored.cart.quantity(of: shoes.id) == 7)
        #expect(stored.cartVersion == 9)
    }

    @Test("Only one instance purges at a time; the others skip their turn")
    func purgeOnceAcrossInstances() throws {
        let url = try TestPostgresServer.shared().makeDatabase(prefix: "purge")
        let storage = try Self.open(url)
        defer { storage.close() }
        let old = TestSessions.new()
        try storage.sessions.setDisplayName("Old", for: old, at: now - 1000)
        let other = try PostgresConnection(connectionString: url)
        defer { other.close() }
        try other.execute("SELECT pg_advisory_lock($1)", PostgresSessionStore.purgeLockKey)
        #expect(try storage.sessions.deleteSessions(lastSeenBefore: now) == 0)
        #expect(try storage.sessions.stored(old) != nil)
        try other.execute("SELECT pg_advisory_unlock($1)", PostgresSessionStore.purgeLockKey)
        #expect(try storage.sessions.deleteSessions(lastSeenBefore: now) == 1)
    }

    @Test("PostgreSQL down: calls fail as unavailable and change nothing; back: everything recovers, and open streams get their current counts")
    func outageAndRecovery() throws {
        let server = try TestPostgresServer()
        defer { server.remove() }
        let url = try server.makeDatabase(prefix: "outage")
        let storage = try Self.open(url)
        defer { storage.close() }
        let hub = BadgeHub()
        _ = storage.badgePublisher(deliveringTo: hub)
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        let change = try storage.carts.add(productID: tent.id, for: session, at: now)
        let stream = EventStream()
        defer { stream.finish() }
        hub.subscribe(stream, liveKey: session.shopperLiveKey, client: session.liveKey, current: change)
        _ = stream.drainedText()

        try server.stop()
        #expect(throws: StorageError.self) { try storage.ping() }
        #expect(throws: StorageError.self) { try storage.carts.add(productID: tent.id, for: TestSessions.stored(session), at: now) }
        #expect(throws: StorageError.self) { try storage.sessions.stored(session) }
        try server.start()

        // The listener is back within its longest backoff, and resends the count it may have missed.
        let resent = Self.wait(for: "data: 4", on: stream, timeout: 10)
        #expect(resent.contains("event: badge") && resent.contains("data: 4"), "after the outage the stream got “\(resent)”")
        try storage.ping()
        let stored = try #require(try storage.sessions.stored(session))
        #expect(stored.cart.quantity(of: tent.id) == 1, "the change refused during the outage was written")
        let after = try storage.carts.add(productID: tent.id, for: TestSessions.stored(session), at: now)
        #expect(after == CartChange(itemCount: 5, version: 2))
        #expect(Self.wait(for: "data: 5", on: stream).contains("data: 5"))
    }

    /// Collects what `stream` sends until it holds `text` or `timeout` seconds pass.
    private static func wait(for text: String, on stream: EventStream, timeout: Double = 2, after received: String = "") -> String {
        var received = received
        let deadline = Date().addingTimeInterval(timeout)
        while !received.contains(text), Date() < deadline {
            received += stream.drainedText()
            if !received.contains(text) { Thread.sleep(forTimeInterval: 0.005) }
        }
        return received
    }
}
