import Foundation
import SQLite
import Testing

@Suite("Migrations")
struct MigratorTests {
    /// A migrator whose migrations log their names, so tests see what ran.
    private func makeMigrator(_ log: Recorder<String>, count: Int = 3) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-create-carts") { db in
            log.append("v1-create-carts")
            try db.execute(sql: "CREATE TABLE carts (id INTEGER PRIMARY KEY, owner TEXT NOT NULL)")
        }
        migrator.registerMigration("v2-create-items") { db in
            log.append("v2-create-items")
            try db.execute(sql: """
                CREATE TABLE items (id INTEGER PRIMARY KEY, cart_id INTEGER NOT NULL REFERENCES carts(id), sku TEXT NOT NULL);
                CREATE INDEX items_cart ON items (cart_id);
                """)
        }
        if count >= 3 {
            migrator.registerMigration("v3-cart-note") { db in
                log.append("v3-cart-note")
                try db.execute(sql: "ALTER TABLE carts ADD COLUMN note TEXT")
            }
        }
        return migrator
    }

    @Test func appliesMigrationsInOrderAndBumpsUserVersion() throws {
        try withTemporaryDatabase { db, _ throws in
            let log = Recorder<String>()
            let migrator = makeMigrator(log)
            #expect(try migrator.appliedVersion(in: db) == 0)
            try migrator.migrate(db)
            #expect(log.values == ["v1-create-carts", "v2-create-items", "v3-cart-note"])
            #expect(migrator.migrationNames == log.values)
            #expect(try migrator.appliedVersion(in: db) == 3)
            #expect(try db.fetchValue("PRAGMA user_version") == 3)
            try db.execute("INSERT INTO carts (owner, note) VALUES (?, ?)", ["ada", nil])
        }
    }

    @Test func migratingTwiceIsANoOpAndNewMigrationsApplyAlone() throws {
        try withTemporaryDatabase { db, _ throws in
            let log = Recorder<String>()
            try makeMigrator(log, count: 2).migrate(db)
            try makeMigrator(log, count: 2).migrate(db)
            #expect(log.values == ["v1-create-carts", "v2-create-items"])
            #expect(try db.fetchValue("PRAGMA user_version") == 2)

            try makeMigrator(log, count: 3).migrate(db)
            #expect(log.values == ["v1-create-carts", "v2-create-items", "v3-cart-note"])
            #expect(try db.fetchValue("PRAGMA user_version") == 3)
        }
    }

    @Test("A database from a newer build (a version above every migration) is refused and left as it was")
    func aNewerDatabaseIsRefused() throws {
        try withTemporaryDatabase { db, _ throws in
            let log = Recorder<String>()
            try makeMigrator(log, count: 3).migrate(db)
            let error = try #require(throws: DatabaseMigrator.NewerSchemaError.self) {
                try makeMigrator(log, count: 2).migrate(db)
            }
            #expect(error.version == 3 && error.knownVersion == 2)
            #expect(try db.fetchValue("PRAGMA user_version") == 3)
            #expect(log.values == ["v1-create-carts", "v2-create-items", "v3-cart-note"])
        }
    }

    @Test func aFailingMigrationRollsBackEntirely() throws {
        try withTemporaryDatabase { db, _ throws in
            let log = Recorder<String>()
            var migrator = makeMigrator(log, count: 2)
            migrator.registerMigration("v3-broken") { db in
                try db.execute(sql: "CREATE TABLE half_done (x INTEGER)")
                try db.execute("INSERT INTO carts (owner) VALUES (?)", ["ghost"])
                throw TestFailure(reason: "broken migration")
            }
            migrator.registerMigration("v4-never") { _ in log.append("v4-never") }

            #expect(throws: TestFailure(reason: "broken migration")) {
                try migrator.migrate(db)
            }
            #expect(try migrator.appliedVersion(in: db) == 2, "earlier migrations stay applied")
            #expect(try db.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'") == 0)
            #expect(try db.fetchValue("SELECT count(*) FROM carts") == 0)
            #expect(!log.values.contains("v4-never"))
            #expect(!db.isInTransaction)
        }
    }

    @Test func aFailingSQLStatementInAMigrationLeavesTheVersion() throws {
        try withTemporaryDatabase { db, _ throws in
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1-bad") { db in
                try db.execute(sql: "CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER)")
            }
            let error = #expect(throws: SQLiteError.self) { try migrator.migrate(db) }
            #expect(error?.message.contains("already exists") == true)
            #expect(try migrator.appliedVersion(in: db) == 0)
            #expect(try db.fetchValue("SELECT count(*) FROM sqlite_schema") == 0)
        }
    }

    @Test func migratingInsideATransactionIsRefused() throws {
        try withTemporaryDatabase { db, _ throws in
            let log = Recorder<String>()
            let error = #expect(throws: SQLiteError.self) {
                try db.inTransaction { try makeMigrator(log).migrate(db) }
            }
            #expect(error?.code == .misuse)
            #expect(log.values.isEmpty)
        }
    }

    @Test func concurrentMigrationsFromSeveralConnectionsApplyOnce() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/concurrent.sqlite"
            var migrator = DatabaseMigrator()
            for version in 1...5 {
                migrator.registerMigration("v\(version)") { db in
                    try db.execute(sql: "CREATE TABLE IF NOT EXISTS applied (version INTEGER NOT NULL)")
                    try db.execute("INSERT INTO applied VALUES (?)", [version])
                    // Widen the window in which the other connection can interleave.
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            let sharedMigrator = migrator
            let errors = Recorder<String>()
            let done = DispatchGroup()
            for _ in 0..<4 {
                done.enter()
                Thread {
                    defer { done.leave() }
                    do {
                        let db = try Database(path: path)
                        defer { db.close() }
                        try sharedMigrator.migrate(db)
                    } catch {
                        errors.append("\(error)")
                    }
                }.start()
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(errors.values.isEmpty)

            let db = try Database(path: path)
            defer { db.close() }
            #expect(try db.fetchAll("SELECT version FROM applied ORDER BY rowid") { try $0.int(0) } == [1, 2, 3, 4, 5])
            #expect(try migrator.appliedVersion(in: db) == 5)
        }
    }

    @Test func migratesThroughAPool() throws {
        try withTemporaryDirectory { directory throws in
            let pool = try DatabasePool(path: directory + "/pool.sqlite")
            defer { pool.close() }
            let log = Recorder<String>()
            try makeMigrator(log).migrate(pool)
            #expect(try pool.read { db in try makeMigrator(log).appliedVersion(in: db) } == 3)
            #expect(log.values.count == 3)
        }
    }
}
