import Dispatch
import Postgres
import Synchronization
import Testing

@Suite("Transactions")
struct TransactionTests {
    private static func prepare(_ connection: PostgresConnection) throws {
        try connection.execute(sql: "CREATE TABLE items (id integer PRIMARY KEY, qty integer NOT NULL)")
    }

    private static func count(_ connection: PostgresConnection) throws -> Int {
        try connection.fetchValue("SELECT count(*) FROM items") ?? -1
    }

    @Test func aReturningBodyCommits() throws {
        try withTestConnection { connection, url throws in
            try Self.prepare(connection)
            let inserted = try connection.inTransaction {
                try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 5)
            }
            #expect(inserted == 1)
            #expect(!connection.isInTransaction)
            let other = try PostgresConnection(connectionString: url)
            defer { other.close() }
            #expect(try Self.count(other) == 1)
        }
    }

    /// What a transaction on a fresh `items` table throws when `body` fails in it, having
    /// checked that the transaction is over and left no row behind.
    private static func rolledBack<Failure: Error>(
        throwing _: Failure.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: (PostgresConnection) throws -> Void
    ) throws -> Failure {
        try withTestConnection { connection, _ throws in
            try prepare(connection)
            let error = try #require(throws: Failure.self, sourceLocation: sourceLocation) {
                try connection.inTransaction { try body(connection) }
            }
            #expect(!connection.isInTransaction, sourceLocation: sourceLocation)
            #expect(try count(connection) == 0, sourceLocation: sourceLocation)
            return error
        }
    }

    @Test func aThrowingBodyRollsBackAndRethrows() throws {
        let error = try Self.rolledBack(throwing: TestFailure.self) { connection in
            try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 5)
            throw TestFailure(reason: "boom")
        }
        #expect(error == TestFailure(reason: "boom"))
    }

    @Test func aFailingStatementRollsBackEverything() throws {
        let error = try Self.rolledBack(throwing: PostgresError.self) { connection in
            try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 5)
            try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 6)
        }
        #expect(error.isUniqueViolation)
    }

    @Test func aCaughtStatementFailureCannotCommitSilently() throws {
        let error = try Self.rolledBack(throwing: PostgresError.self) { connection in
            try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 5)
            _ = try? connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 6)
        }
        #expect(error.kind == .misuse)
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        try withTestConnection { connection, _ throws in
            try Self.prepare(connection)
            try connection.inTransaction(.serializable) {
                try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 5)
                #expect(throws: PostgresError.self) {
                    try connection.inTransaction {
                        try connection.execute("INSERT INTO items VALUES ($1, $2)", 2, 5)
                        try connection.execute("INSERT INTO items VALUES ($1, $2)", 1, 5)
                    }
                }
                try connection.inTransaction {
                    try connection.execute("INSERT INTO items VALUES ($1, $2)", 3, 5)
                }
                let isolation: String? = try connection.fetchValue("SHOW transaction_isolation")
                #expect(isolation == "serializable")
            }
            let ids = try connection.fetchAll("SELECT id FROM items ORDER BY id") { row in try row.int(0) }
            #expect(ids == [1, 3])
        }
    }

    /// Runs `sql` on the database at `url`, on a connection of its own.
    private static func execute(_ sql: String, on url: String) throws {
        let setup = try PostgresConnection(connectionString: url)
        defer { setup.close() }
        try setup.execute(sql: sql)
    }

    /// Two SERIALIZABLE transactions each read what the other writes (write skew); held
    /// apart by a barrier on their first run, one of them must fail with 40001.
    private static func runWriteSkew(url: String, maximumAttempts: Int) throws -> (attempts: Int, errors: [PostgresError]) {
        try Self.execute("CREATE TABLE doctors (name text PRIMARY KEY, on_call boolean NOT NULL); INSERT INTO doctors VALUES ('alice', true), ('bob', true)", on: url)
        let attempts = Counter()
        let errors = Recorder<PostgresError>()
        let bothRead = FirstMeeting(of: 2)
        concurrently(2) { index in
            let name = index == 0 ? "alice" : "bob"
            do {
                let connection = try PostgresConnection(connectionString: url)
                defer { connection.close() }
                try connection.inTransaction(.serializable, maximumAttempts: maximumAttempts) {
                    attempts.add()
                    let onCall: Int = try connection.fetchValue("SELECT count(*) FROM doctors WHERE on_call") ?? 0
                    bothRead.meet()
                    if onCall >= 2 {
                        try connection.execute("UPDATE doctors SET on_call = false WHERE name = $1", name)
                    }
                }
            } catch let error as PostgresError {
                errors.append(error)
            } catch {
                errors.append(PostgresError(kind: .misuse, message: "\(error)", operation: "test"))
            }
        }
        return (attempts.value, errors.values)
    }

    @Test func aRealSerializationFailureIsReportedWithoutRetries() throws {
        let url = try makeTestDatabase()
        let (attempts, errors) = try Self.runWriteSkew(url: url, maximumAttempts: 1)
        #expect(attempts == 2)
        #expect(errors.count == 1)
        #expect(errors.first?.isSerializationFailure == true)
        #expect(errors.first?.isTransactionRetryable == true)
    }

    @Test func aRealSerializationFailureIsRetried() throws {
        let url = try makeTestDatabase()
        let (attempts, errors) = try Self.runWriteSkew(url: url, maximumAttempts: 3)
        #expect(errors.isEmpty)
        // One transaction failed once and was rerun; on its rerun it saw the other's
        // commit, so exactly one doctor went off call.
        #expect(attempts == 3)
        let connection = try PostgresConnection(connectionString: url)
        defer { connection.close() }
        #expect(try connection.fetchValue("SELECT count(*) FROM doctors WHERE on_call") == 1)
    }

    /// Two transactions lock two rows in opposite orders: PostgreSQL picks one as the
    /// deadlock victim (after `deadlock_timeout`, 1 s), which is rerun and then succeeds.
    @Test func aRealDeadlockIsRetried() throws {
        let url = try makeTestDatabase()
        try Self.execute("CREATE TABLE rows (id integer PRIMARY KEY, value integer NOT NULL); INSERT INTO rows VALUES (1, 0), (2, 0)", on: url)
        let attempts = Counter()
        let deadlocks = Counter()
        let failures = Recorder<String>()
        let bothLocked = FirstMeeting(of: 2)
        concurrently(2) { index in
            let order = index == 0 ? [1, 2] : [2, 1]
            do {
                let connection = try PostgresConnection(connectionString: url)
                defer { connection.close() }
                try connection.inTransaction(maximumAttempts: 3) {
                    attempts.add()
                    do {
                        try connection.execute("UPDATE rows SET value = value + 1 WHERE id = $1", order[0])
                        bothLocked.meet()
                        try connection.execute("UPDATE rows SET value = value + 1 WHERE id = $1", order[1])
                    } catch let error as PostgresError where error.isDeadlock {
                        deadlocks.add()
                        throw error
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.values.isEmpty)
        // Usually one victim; on a loaded machine both waiters may run the deadlock check before
        // either is cancelled, and both are then rerun. Either way each deadlock cost one rerun.
        #expect(deadlocks.value >= 1)
        #expect(attempts.value == 2 + deadlocks.value)
        let connection = try PostgresConnection(connectionString: url)
        defer { connection.close() }
        #expect(try connection.fetchAll("SELECT value FROM rows ORDER BY id") { try $0.int(0) } == [2, 2])
    }
}

/// Where threads wait for each other on their first run only: the first `parties` calls of
/// ``meet()`` each wait (up to 5 s) until all of them have come; any later call, a rerun's,
/// passes straight through.
private final class FirstMeeting: Sendable {
    private let parties: Int
    private let arrivals = Atomic(0)
    private let group = DispatchGroup()

    init(of parties: Int) {
        self.parties = parties
        for _ in 0..<parties { group.enter() }
    }

    func meet() {
        guard arrivals.wrappingAdd(1, ordering: .relaxed).newValue <= parties else { return }
        group.leave()
        _ = group.wait(timeout: .now() + 5)
    }
}
