import Foundation
import SQLite
import Synchronization
import Testing

@Suite("Connection pool")
struct DatabasePoolTests {
    private func withPool(
        maximumConnections: Int = 4,
        configuration: Database.Configuration = Database.Configuration(),
        _ body: (DatabasePool, String) throws -> Void
    ) throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/pool.sqlite"
            let pool = try DatabasePool(path: path, maximumConnections: maximumConnections, configuration: configuration)
            defer { pool.close() }
            try pool.write { db in
                try db.execute(sql: """
                    CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
                    INSERT INTO counter VALUES (1, 0);
                    """)
            }
            try body(pool, path)
        }
    }

    private static func counter(_ db: Database) throws -> Int {
        try db.fetchValue("SELECT value FROM counter WHERE id = 1") ?? -1
    }

    /// 8 writer threads each increment a counter 500 times with a read-modify-write, which
    /// is only exact if write transactions are serialized; meanwhile reader threads must
    /// see the value only grow and never hit SQLITE_BUSY.
    @Test func concurrentWritersAndReaders() throws {
        try withPool(maximumConnections: 4) { pool, _ throws in
            let writers = 8
            let incrementsPerWriter = 500
            let failures = Recorder<String>()
            let readCounts = Recorder<Int>()
            let writersDone = Flag()
            let finished = DispatchGroup()

            for _ in 0..<writers {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    for _ in 0..<incrementsPerWriter {
                        do {
                            try pool.write { db in
                                let value = try Self.counter(db)
                                try db.execute("UPDATE counter SET value = ? WHERE id = 1", [value + 1])
                            }
                        } catch {
                            failures.append("writer: \(error)")
                            return
                        }
                    }
                }.start()
            }

            let readersDone = DispatchGroup()
            for _ in 0..<2 {
                readersDone.enter()
                Thread {
                    defer { readersDone.leave() }
                    var last = 0
                    var reads = 0
                    // Bounded by count as well, so a hung writer cannot make it spin forever.
                    while !writersDone.isSet && reads < 1_000_000 {
                        do {
                            let value = try pool.read { db in try Self.counter(db) }
                            if value < last {
                                failures.append("reader saw \(value) after \(last)")
                            }
                            last = value
                            reads += 1
                        } catch {
                            failures.append("reader: \(error)")
                            return
                        }
                    }
                    readCounts.append(reads)
                }.start()
            }

            let writersFinished = finished.wait(timeout: .now() + 120)
            writersDone.set()
            #expect(writersFinished == .success)
            #expect(readersDone.wait(timeout: .now() + 30) == .success)

            #expect(failures.values.isEmpty, "\(failures.values.prefix(5))")
            #expect(try pool.read { db in try Self.counter(db) } == writers * incrementsPerWriter)
            #expect(readCounts.values.count == 2)
            #expect(readCounts.values.allSatisfy { $0 > 0 })
        }
    }

    @Test func writeRollsBackWhenTheBodyThrows() throws {
        try withPool { pool, _ throws in
            #expect(throws: TestFailure(reason: "abort")) {
                try pool.write { db in
                    try db.execute("UPDATE counter SET value = 100")
                    throw TestFailure(reason: "abort")
                }
            }
            #expect(try pool.read { db in try Self.counter(db) } == 0)
        }
    }

    @Test func sequentialBorrowsReuseOneWarmConnection() throws {
        try withPool { pool, _ throws in
            let first = try pool.withConnection { ObjectIdentifier($0) }
            for _ in 0..<5 {
                #expect(try pool.withConnection { ObjectIdentifier($0) } == first)
            }
            let statement = try pool.withConnection { ObjectIdentifier(try $0.cachedStatement(sql: "SELECT 1")) }
            #expect(try pool.withConnection { ObjectIdentifier(try $0.cachedStatement(sql: "SELECT 1")) } == statement)
        }
    }

    @Test func connectionsComeBackWithoutAnOpenTransaction() throws {
        try withPool(maximumConnections: 1) { pool, _ throws in
            #expect(throws: TestFailure(reason: "forgot to commit")) {
                try pool.withConnection { db throws in
                    try db.execute("BEGIN")
                    try db.execute("UPDATE counter SET value = 7")
                    throw TestFailure(reason: "forgot to commit")
                }
            }
            try pool.withConnection { db throws in
                #expect(!db.isInTransaction)
                #expect(try Self.counter(db) == 0)
            }
        }
    }

    @Test func exhaustedPoolTimesOutInsteadOfDeadlocking() throws {
        try withPool(maximumConnections: 1, configuration: .init(busyTimeout: .milliseconds(100))) { pool, _ throws in
            let error = #expect(throws: SQLiteError.self) {
                try pool.withConnection { _ in
                    try pool.withConnection { _ in }
                }
            }
            #expect(error?.isBusy == true)
            // The slot was returned: the pool still works.
            #expect(try pool.read { db in try Self.counter(db) } == 0)
        }
    }

    @Test func closedPoolRefusesWorkAndDataPersists() throws {
        try withPool { pool, path throws in
            try pool.write { db in try db.execute("UPDATE counter SET value = 42") }
            pool.close()
            let error = #expect(throws: SQLiteError.self) {
                try pool.read { db in try Self.counter(db) }
            }
            #expect(error?.code == .misuse)

            let reopened = try DatabasePool(path: path)
            defer { reopened.close() }
            #expect(try reopened.read { db in try Self.counter(db) } == 42)
        }
    }

    @Test func aBadPathFailsAtCreation() throws {
        try withTemporaryDirectory { directory throws in
            let error = #expect(throws: SQLiteError.self) {
                _ = try DatabasePool(path: directory + "/no/such/dir.sqlite")
            }
            #expect(error?.code == .cantOpen)
        }
    }
}

/// A flag set once by one thread and polled by others.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
