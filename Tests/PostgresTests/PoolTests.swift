import Foundation
import Postgres
import PostgresTesting
import Synchronization
import Testing

@Suite("Connection pool")
struct PoolTests {
    private static func makeCounter(_ pool: PostgresPool) throws {
        try pool.withConnection { connection in
            try connection.execute(sql: "CREATE TABLE counter (id integer PRIMARY KEY, value integer NOT NULL); INSERT INTO counter VALUES (1, 0)")
        }
    }

    /// The backend of the connection the pool lends next, once it has answered a query.
    private static func answeringBackend(of pool: PostgresPool) throws -> Int32 {
        try pool.withConnection { connection throws in
            #expect(try connection.fetchValue("SELECT 1") == 1)
            return connection.backendProcessID
        }
    }

    /// Has `threads` threads increment the counter `times` times each, every time a
    /// read-modify-write in its own transaction (`isolation`, reading with `select`).
    /// - Returns: The errors that stopped a thread, and the counter's value after.
    private static func increment(
        _ pool: PostgresPool, threads: Int, times: Int, _ isolation: IsolationLevel = .readCommitted, maximumAttempts: Int = 3,
        select: String
    ) throws -> (failures: [String], total: Int?) {
        try makeCounter(pool)
        let failures = Recorder<String>()
        concurrently(threads) { _ in
            for _ in 0..<times {
                do {
                    try pool.transaction(isolation, maximumAttempts: maximumAttempts) { connection in
                        let value: Int = try connection.fetchValue(select) ?? -1
                        try connection.execute("UPDATE counter SET value = $1 WHERE id = 1", value + 1)
                    }
                } catch {
                    failures.append("\(error)")
                    return
                }
            }
        }
        let total: Int? = try pool.withConnection { connection in try connection.fetchValue("SELECT value FROM counter") }
        return (failures.values, total)
    }

    /// 8 threads share 4 connections; each increments 100 times with a read-modify-write
    /// under a row lock, which is exact only if transactions really isolate.
    @Test func eightThreadsIncrementExactly() throws {
        let pool = try PostgresPool(connectionString: try makeTestDatabase(), maximumConnections: 4)
        defer { pool.close() }
        let result = try Self.increment(pool, threads: 8, times: 100, select: "SELECT value FROM counter WHERE id = 1 FOR UPDATE")
        #expect(result.failures.isEmpty)
        #expect(result.total == 8 * 100)
        #expect(pool.idleConnectionCount <= 4)
    }

    /// The same increments as SERIALIZABLE read-modify-writes without a lock: conflicts
    /// fail with 40001 and are rerun, and the total is still exact.
    @Test func serializableIncrementsAreExactWithRetries() throws {
        let pool = try PostgresPool(connectionString: try makeTestDatabase(), maximumConnections: 4)
        defer { pool.close() }
        let result = try Self.increment(
            pool, threads: 4, times: 25, .serializable, maximumAttempts: 100, select: "SELECT value FROM counter WHERE id = 1"
        )
        #expect(result.failures.isEmpty)
        #expect(result.total == 100)
    }

    @Test func anExhaustedPoolTimesOutAsUnavailable() throws {
        let pool = try PostgresPool(connectionString: try makeTestDatabase(), maximumConnections: 1, waitTimeout: .milliseconds(100))
        defer { pool.close() }
        let error = try pool.withConnection { _ in
            try #require(throws: PostgresError.self) {
                try pool.withConnection { _ in }
            }
        }
        #expect(error.kind == .poolTimeout)
        #expect(error.isUnavailable)
        // The slot is free again afterwards.
        try pool.ping()
    }

    @Test func aTransactionLeftOpenByHandIsRolledBackOnReturn() throws {
        let pool = try PostgresPool(connectionString: try makeTestDatabase(), maximumConnections: 1)
        defer { pool.close() }
        try Self.makeCounter(pool)
        #expect(throws: TestFailure.self) {
            try pool.withConnection { connection in
                try connection.execute(sql: "BEGIN")
                try connection.execute("UPDATE counter SET value = $1", 99)
                throw TestFailure(reason: "left open")
            }
        }
        try pool.withConnection { connection throws in
            #expect(!connection.isInTransaction)
            #expect(try connection.fetchValue("SELECT value FROM counter") == 0)
        }
    }

    @Test func aTerminatedIdleConnectionIsReplacedBeforeUse() throws {
        let url = try makeTestDatabase()
        let pool = try PostgresPool(connectionString: url, maximumConnections: 1)
        defer { pool.close() }
        let first = try pool.withConnection { connection in connection.backendProcessID }
        let killer = try PostgresConnection(connectionString: url)
        defer { killer.close() }
        #expect(try killer.fetchValue("SELECT pg_terminate_backend($1)", first) == true)
        // The backend's goodbye reaches the idle socket shortly after.
        _ = try killer.fetchValue("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", first, as: Int.self)
        usleep(100_000)
        #expect(try Self.answeringBackend(of: pool) != first)
    }

    /// A connection lost at a nested transaction's SAVEPOINT, after the outer transaction's
    /// work was sent, fails the call: rerunning it would repeat that work.
    @Test func aConnectionLostAtASavepointIsNotRerun() throws {
        let url = try makeTestDatabase()
        let pool = try PostgresPool(connectionString: url, maximumConnections: 2)
        defer { pool.close() }
        let killer = try PostgresConnection(connectionString: url)
        defer { killer.close() }
        let runs = Mutex(0)
        let error = try #require(throws: PostgresError.self) {
            try pool.transaction { connection in
                runs.withLock { $0 += 1 }
                #expect(try connection.fetchValue("SELECT 1") == 1)
                #expect(try killer.fetchValue("SELECT pg_terminate_backend($1)", connection.backendProcessID) == true)
                try connection.inTransaction { try connection.execute(sql: "SELECT 1") }
            }
        }
        #expect(error.kind == .connectionLost && error.operation == "savepoint", "\(error)")
        #expect(runs.withLock { $0 } == 1)
    }

    /// A host that takes a connection but never answers: after the first attempt timed out,
    /// borrowers fail at once for a while (and while another attempt is under way) instead of
    /// each waiting for the connect timeout.
    @Test func aSlowFailedConnectFailsTheNextBorrowersAtOnce() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 16) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let pool = try PostgresPool(
            connectionString: "postgres://quickcart@127.0.0.1:\(port)/nothing?connect_timeout=2", reconnectDelay: .seconds(30)
        )
        defer { pool.close() }
        let clock = ContinuousClock()
        var first: PostgresError?
        let waited = clock.measure { first = #expect(throws: PostgresError.self) { try pool.ping() } }
        #expect(first?.isUnavailable == true && first?.message.hasPrefix("not tried") == false, "\(String(describing: first))")
        #expect(waited >= .seconds(1), "the attempt waited for the connect timeout")
        var second: PostgresError?
        let failedAtOnce = clock.measure { second = #expect(throws: PostgresError.self) { try pool.ping() } }
        #expect(second?.isUnavailable == true && second?.message.hasPrefix("not tried") == true, "\(String(describing: second))")
        #expect(failedAtOnce < .milliseconds(500))
    }

    /// A server that keeps its connections but stopped answering (here the backend process is
    /// paused, as a hung host would be): the statement fails as unavailable once the response
    /// timeout is over, instead of waiting until TCP gives up; then borrowers fail at once for
    /// the reconnect delay rather than each waiting on an idle connection to the same server;
    /// after it, a new connection works.
    @Test func aStatementLeftUnansweredFailsInTimeAndTheNextBorrowersAtOnce() throws {
        let pool = try PostgresPool(
            connectionString: try makeTestDatabase(), maximumConnections: 2, reconnectDelay: .seconds(2),
            configuration: PostgresConnection.Configuration(responseTimeout: .seconds(1))
        )
        defer { pool.close() }
        let paused = try pool.withConnection { connection in connection.backendProcessID }
        #expect(kill(paused, SIGSTOP) == 0)
        defer { kill(paused, SIGCONT) }
        // Without the timeout the ping would wait for good: resume the backend well after the
        // timeout, so that a regression fails the timing below instead of hanging the run.
        DispatchQueue.global().asyncAfter(deadline: .now() + 8) { kill(paused, SIGCONT) }
        let clock = ContinuousClock()
        var unanswered: PostgresError?
        let waited = clock.measure { unanswered = #expect(throws: PostgresError.self) { try pool.ping() } }
        #expect(unanswered?.kind == .connectionLost && unanswered?.isUnavailable == true, "\(String(describing: unanswered))")
        #expect(waited >= .milliseconds(900) && waited < .seconds(5), "waited \(waited)")
        #expect(pool.idleConnectionCount == 0)
        var next: PostgresError?
        let failedAtOnce = clock.measure { next = #expect(throws: PostgresError.self) { try pool.ping() } }
        #expect(next?.isUnavailable == true && next?.message.hasPrefix("not tried") == true, "\(String(describing: next))")
        #expect(failedAtOnce < .milliseconds(500))
        usleep(2_100_000)
        #expect(try Self.answeringBackend(of: pool) != paused)
    }

    /// Without a response timeout (the default) a slow statement is waited for, however long.
    @Test func withoutAResponseTimeoutASlowStatementIsWaitedFor() throws {
        try withTestConnection { connection, _ in
            #expect(connection.responseTimeout == nil)
            connection.responseTimeout = .milliseconds(200)
            #expect(throws: PostgresError.self) { try connection.execute(sql: "SELECT pg_sleep(0.5)") }
            #expect(connection.isClosed && connection.timedOut)
        }
        try withTestConnection { connection, _ in
            try connection.execute(sql: "SELECT pg_sleep(0.5)")
            #expect(try connection.fetchValue("SELECT 1") == 1)
        }
    }

    /// A refused attempt takes no time, so the next borrower tries again (a restarted local
    /// server is used at once).
    @Test func aRefusedConnectIsTriedAgainAtOnce() throws {
        let pool = try PostgresPool(connectionString: "postgres://quickcart@127.0.0.1:1/nothing?connect_timeout=5")
        defer { pool.close() }
        for _ in 0..<2 {
            // Longer than a refused attempt takes, far shorter than a person would notice.
            usleep(10_000)
            let error = try #require(throws: PostgresError.self) { try pool.ping() }
            #expect(error.kind == .connectionFailed && !error.message.hasPrefix("not tried"), "\(error)")
        }
    }

    @Test func aClosedPoolRefusesBorrowers() throws {
        let pool = try PostgresPool(connectionString: try makeTestDatabase())
        try pool.ping()
        pool.close()
        let error = try #require(throws: PostgresError.self) { try pool.ping() }
        #expect(error.kind == .misuse)
    }

    /// PostgreSQL stops (every connection drops) and starts again on the same port: in
    /// between, calls fail fast as unavailable; afterwards the same pool works again
    /// without being recreated.
    @Test func thePoolRecoversAfterPostgresRestarts() throws {
        let server = try TestPostgresServer()
        defer { server.remove() }
        let pool = try PostgresPool(connectionString: try server.makeDatabase(), maximumConnections: 4)
        defer { pool.close() }
        try Self.makeCounter(pool)
        concurrently(4) { _ in
            _ = try? pool.transaction { connection in try connection.execute("UPDATE counter SET value = value + $1", 1) }
        }
        #expect(pool.idleConnectionCount >= 1)

        try server.stop()
        for _ in 0..<3 {
            let error = try #require(throws: PostgresError.self) {
                try pool.transaction { connection in try connection.execute("UPDATE counter SET value = value + $1", 1) }
            }
            #expect(error.isUnavailable)
            let pingError = try #require(throws: PostgresError.self) { try pool.ping() }
            #expect(pingError.isUnavailable)
        }

        try server.start()
        try pool.transaction { connection in try connection.execute("UPDATE counter SET value = value + $1", 1) }
        let value: Int? = try pool.withConnection { connection in try connection.fetchValue("SELECT value FROM counter") }
        #expect(value == 5)
    }
}
