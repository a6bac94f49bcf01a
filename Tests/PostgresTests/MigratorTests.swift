import Postgres
import Synchronization
import Testing

@Suite("Migrator")
struct MigratorTests {
    /// "TESTMIGR" in ASCII.
    private static let lockKey: Int64 = 0x5445_5354_4D49_4752

    private static func migrator(failingAt failing: String? = nil) -> PostgresMigrator {
        var migrator = PostgresMigrator(lockKey: Self.lockKey)
        migrator.registerMigration("v1-carts") { connection in
            try connection.execute(sql: "CREATE TABLE carts (id bigserial PRIMARY KEY, owner text NOT NULL)")
        }
        migrator.registerMigration("v2-cart-note") { connection in
            // Slow enough that concurrent migrators really overlap.
            try connection.execute(sql: "SELECT pg_sleep(0.1)")
            try connection.execute(sql: "ALTER TABLE carts ADD COLUMN note text")
        }
        migrator.registerMigration("v3-items") { connection in
            try connection.execute(sql: "CREATE TABLE items (cart_id bigint REFERENCES carts, qty integer)")
            if failing == "v3-items" {
                try connection.execute(sql: "SELECT * FROM no_such_table")
            }
        }
        return migrator
    }

    @Test func migratesInOrderAndOnlyOnce() throws {
        try withTestConnection { connection, _ throws in
            let migrator = Self.migrator()
            #expect(try migrator.migrate(connection) == 3)
            #expect(try migrator.appliedMigrations(in: connection) == ["v1-carts", "v2-cart-note", "v3-items"])
            #expect(try migrator.migrate(connection) == 0)
            try connection.execute("INSERT INTO carts (owner, note) VALUES ($1, $2)", "ann", "hi")
        }
    }

    @Test func concurrentMigratorsMigrateExactlyOnce() throws {
        let url = try makeTestDatabase()
        let applied = Counter()
        let failures = Recorder<String>()
        concurrently(6) { _ in
            do {
                let connection = try PostgresConnection(connectionString: url)
                defer { connection.close() }
                applied.add(try Self.migrator().migrate(connection))
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.values.isEmpty)
        #expect(applied.value == 3)
        let connection = try PostgresConnection(connectionString: url)
        defer { connection.close() }
        #expect(try connection.fetchValue("SELECT count(*) FROM schema_migrations") == 3)
    }

    @Test func aFailingMigrationRollsBackAndKeepsTheEarlierOnes() throws {
        try withTestConnection { connection, _ throws in
            let error = try #require(throws: PostgresError.self) {
                try Self.migrator(failingAt: "v3-items").migrate(connection)
            }
            #expect(error.sqlState == "42P01")
            #expect(try Self.migrator().appliedMigrations(in: connection) == ["v1-carts", "v2-cart-note"])
            let items: Bool? = try connection.fetchValue("SELECT to_regclass('items') IS NOT NULL")
            #expect(items == false)
            // The lock was released: a fixed build finishes the job.
            #expect(try Self.migrator().migrate(connection) == 1)
        }
    }

    @Test func aChangedHistoryIsRefused() throws {
        try withTestConnection { connection, _ throws in
            try Self.migrator().migrate(connection)
            var renamed = PostgresMigrator(lockKey: Self.lockKey)
            renamed.registerMigration("v1-baskets") { _ in }
            let error = try #require(throws: PostgresError.self) { try renamed.migrate(connection) }
            #expect(error.kind == .misuse)
        }
    }

    @Test func migratingInsideATransactionIsMisuse() throws {
        try withTestConnection { connection, _ throws in
            try connection.inTransaction {
                let error = try #require(throws: PostgresError.self) { try Self.migrator().migrate(connection) }
                #expect(error.kind == .misuse)
            }
        }
    }
}
