import Foundation
import SQLite
import Testing

@Suite("Opening, configuring, scripts and closing")
struct DatabaseTests {
    @Test("A configured file mode applies to a file the open creates, and its -wal and -shm; an existing file keeps its own")
    func fileModeAppliesToNewFiles() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/private.sqlite"
            let db = try Database(path: path, configuration: Database.Configuration(fileMode: 0o600))
            try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)")
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(try Self.mode(of: file) == 0o600, "\(file)")
            }
            db.close()

            let existing = directory + "/existing.sqlite"
            #expect(FileManager.default.createFile(atPath: existing, contents: nil, attributes: [.posixPermissions: 0o640]))
            let again = try Database(path: existing, configuration: Database.Configuration(fileMode: 0o600))
            again.close()
            #expect(try Self.mode(of: existing) == 0o640)
        }
    }

    private static func mode(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func openCreatesTheFileAndConfiguresTheConnection() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/new.sqlite"
            #expect(!FileManager.default.fileExists(atPath: path))

            let db = try Database(path: path)
            defer { db.close() }

            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try db.fetchValue("PRAGMA journal_mode") == "wal")
            #expect(try db.fetchValue("PRAGMA foreign_keys") == 1)
            #expect(try db.fetchValue("PRAGMA synchronous") == 1, "1 is NORMAL")
            #expect(try db.fetchValue("PRAGMA busy_timeout") == 5000)
            #expect(!db.isInTransaction)
            #expect(!db.isClosed)
        }
    }

    @Test("A read-only open leaves a rollback-journal file as it is, cannot write, and does not create a missing file")
    func readOnlyOpenChangesNothing() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/standalone.sqlite"
            let writer = try Database(path: path)
            try writer.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1); PRAGMA journal_mode = DELETE")
            writer.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(before[18] == 1 && before[19] == 1, "a rollback-journal file")

            let reader = try Database(path: path, configuration: Self.readOnly)
            #expect(try reader.fetchValue("SELECT x FROM t") == 1)
            #expect(try reader.fetchValue("PRAGMA journal_mode") == "delete")
            #expect(throws: SQLiteError.self) { try reader.execute(sql: "INSERT INTO t VALUES (2)") }
            reader.close()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

            let missing = directory + "/missing.sqlite"
            #expect(throws: SQLiteError.self) { _ = try Database(path: missing, configuration: Self.readOnly) }
            #expect(!FileManager.default.fileExists(atPath: missing))
        }
    }

    private static var readOnly: Database.Configuration {
        var configuration = Database.Configuration(fileMode: 0o600)
        configuration.readOnly = true
        return configuration
    }

    @Test func busyTimeoutIsConfigurable() throws {
        try withTemporaryDatabase(configuration: .init(busyTimeout: .seconds(2))) { db, _ throws in
            #expect(try db.fetchValue("PRAGMA busy_timeout") == 2000)
        }
    }

    @Test func prepareConnectionRunsOnOpen() throws {
        let configuration = Database.Configuration(prepareConnection: { db throws in
            try db.execute(sql: "PRAGMA cache_size = -1234")
        })
        try withTemporaryDatabase(configuration: configuration) { db, _ throws in
            #expect(try db.fetchValue("PRAGMA cache_size") == -1234)
        }
    }

    @Test func failingPrepareConnectionFailsTheOpen() throws {
        let configuration = Database.Configuration(prepareConnection: { _ in
            throw TestFailure(reason: "setup")
        })
        try withTemporaryDirectory { directory throws in
            #expect(throws: TestFailure(reason: "setup")) {
                _ = try Database(path: directory + "/x.sqlite", configuration: configuration)
            }
        }
    }

    @Test func failedOpenThrowsCantOpenWithThePath() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/missing-directory/db.sqlite"
            let error = #expect(throws: SQLiteError.self) {
                _ = try Database(path: path)
            }
            #expect(error?.code == .cantOpen)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test func openingANonDatabaseFileFails() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/garbage.sqlite"
            try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: SQLiteError.self) {
                _ = try Database(path: path)
            }
            #expect(error?.code == .notADatabase)
        }
    }

    @Test func foreignKeysAreEnforced() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: """
                CREATE TABLE carts (id INTEGER PRIMARY KEY);
                CREATE TABLE items (id INTEGER PRIMARY KEY, cart_id INTEGER NOT NULL REFERENCES carts(id));
                """)
            let error = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO items (cart_id) VALUES (?)", [42])
            }
            #expect(error?.extendedCode == .constraintForeignKey)
        }
    }

    @Test func dataSurvivesClosingAndReopening() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/persist.sqlite"
            do {
                let db = try Database(path: path)
                try db.execute(sql: "CREATE TABLE notes (body TEXT)")
                try db.execute("INSERT INTO notes (body) VALUES (?)", ["kept"])
                db.close()
            }
            let reopened = try Database(path: path)
            defer { reopened.close() }
            #expect(try reopened.fetchValue("SELECT body FROM notes") == "kept")
        }
    }

    @Test func scriptsRunEveryStatementIncludingCommentsAndRows() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: """
                -- a schema with comments
                CREATE TABLE a (x INTEGER);
                /* block comment */ INSERT INTO a VALUES (1);
                INSERT INTO a VALUES (2);
                SELECT * FROM a;
                PRAGMA user_version = 7;

                """)
            #expect(try db.fetchValue("SELECT sum(x) FROM a") == 3)
            #expect(try db.fetchValue("PRAGMA user_version") == 7)
            try db.execute(sql: "")
            try db.execute(sql: "  -- only a comment\n")
        }
    }

    @Test func scriptErrorsNameTheFailingStatementAndStopThere() throws {
        try withTemporaryDatabase { db, _ throws in
            let error = #expect(throws: SQLiteError.self) {
                try db.execute(sql: """
                    CREATE TABLE a (x INTEGER);
                    INSERT INTO missing VALUES (1);
                    CREATE TABLE b (y INTEGER);
                    """)
            }
            #expect(error?.code == .error)
            #expect(error?.message.contains("no such table: missing") == true)
            #expect(error?.sql?.hasPrefix("INSERT INTO missing") == true)
            #expect(try db.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'a'") == 1)
            #expect(try db.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'b'") == 0)
        }
    }

    @Test func singleStatementCallsRejectSeveralStatementsAndEmptyText() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE a (x INTEGER)")
            let several = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO a VALUES (1); DROP TABLE a")
            }
            #expect(several?.code == .misuse)
            #expect(try db.fetchValue("SELECT count(*) FROM a") == 0, "nothing ran")

            let empty = #expect(throws: SQLiteError.self) {
                try db.execute("  -- nothing  ")
            }
            #expect(empty?.code == .misuse)

            // A trailing semicolon, whitespace and comment are not another statement.
            try db.execute("INSERT INTO a VALUES (?); -- done\n", [1])
            #expect(try db.fetchValue("SELECT count(*) FROM a") == 1)
        }
    }

    @Test func changesAndLastInsertRowID() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY, x INTEGER)")
            try db.execute("INSERT INTO a (x) VALUES (?)", [10])
            #expect(db.lastInsertRowID == 1)
            try db.execute("INSERT INTO a (x) VALUES (?)", [20])
            #expect(db.lastInsertRowID == 2)
            #expect(db.changes == 1)
            try db.execute("UPDATE a SET x = x + 1")
            #expect(db.changes == 2)
            #expect(db.totalChanges == 4)
        }
    }

    @Test func aClosedDatabaseRefusesWork() throws {
        try withTemporaryDatabase { db, _ throws in
            let statement = try db.makeStatement(sql: "SELECT 1")
            db.close()
            db.close()
            #expect(db.isClosed)
            let error = #expect(throws: SQLiteError.self) {
                try db.execute("SELECT 1")
            }
            #expect(error?.code == .misuse)
            #expect(throws: SQLiteError.self) {
                try statement.step()
            }
        }
    }
}
