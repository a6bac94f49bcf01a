/// Brings a database schema up to date with an ordered list of named migrations.
///
/// The n-th registered migration is schema version n, recorded in `PRAGMA user_version`.
/// Each pending migration runs in its own immediate transaction together with its version
/// bump, so it applies entirely or not at all. Applied migrations are skipped, so
/// migrating is idempotent, and it is safe to migrate from several connections or
/// processes at once: the version is checked again after the write lock is taken.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("v1-create-carts") { db in
///     try db.execute(sql: "CREATE TABLE carts (id INTEGER PRIMARY KEY, owner TEXT NOT NULL)")
/// }
/// migrator.registerMigration("v2-cart-note") { db in
///     try db.execute(sql: "ALTER TABLE carts ADD COLUMN note TEXT")
/// }
/// try migrator.migrate(pool)
/// ```
///
/// Never reorder, remove or edit a migration once it has shipped; add a new one.
/// `PRAGMA foreign_keys` cannot change inside a transaction, so a migration that rebuilds
/// a table must keep its data consistent with foreign keys enforced.
public struct DatabaseMigrator: Sendable {
    private struct Migration: Sendable {
        let name: String
        let body: @Sendable (Database) throws -> Void
    }

    private var migrations: [Migration] = []

    /// Creates a migrator with no migrations.
    public init() {}

    /// The registered migration names, in order; the n-th is schema version n.
    public var migrationNames: [String] { migrations.map(\.name) }

    /// Appends a migration; it becomes the next schema version.
    ///
    /// - Parameters:
    ///   - name: A unique, descriptive name such as `"v1-create-carts"`.
    ///   - body: The schema changes. It runs inside a transaction; it must not begin or
    ///     commit one itself (a nested ``Database/inTransaction(_:_:)`` is fine).
    /// - Precondition: No migration with the same name is registered.
    public mutating func registerMigration(_ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "migration \"\(name)\" is registered twice")
        migrations.append(Migration(name: name, body: body))
    }

    /// The schema version recorded in the database: how many migrations have been applied.
    ///
    /// - Parameter db: The database to inspect.
    /// - Returns: `PRAGMA user_version`; 0 for a new database.
    /// - Throws: ``SQLiteError`` if it cannot be read.
    public func appliedVersion(in db: Database) throws -> Int {
        try db.fetchValue("PRAGMA user_version") ?? 0
    }

    /// Applies every migration the database has not seen yet, in order.
    ///
    /// A database at a higher version than there are migrations (written by a newer build)
    /// is refused, unchanged: its schema may differ in ways this build cannot see, so neither
    /// reading nor writing it is safe.
    ///
    /// - Parameter db: The database to migrate; it must not be inside a transaction.
    /// - Throws: ``SQLiteError`` (misuse) if `db` is inside a transaction, where each
    ///   migration could not get its own; ``NewerSchemaError`` for a database from a newer
    ///   build; otherwise the first error, after that migration is rolled back entirely with
    ///   its version unrecorded (the ones before it stay applied).
    public func migrate(_ db: Database) throws {
        guard !db.isInTransaction else {
            throw SQLiteError.misuse("cannot migrate inside a transaction: each migration needs a transaction of its own")
        }
        // Cheap check outside any lock, so an up-to-date database costs one read.
        var applied = try appliedVersion(in: db)
        guard applied <= migrations.count else {
            throw NewerSchemaError(version: applied, knownVersion: migrations.count)
        }
        for (index, migration) in migrations.enumerated() where index >= applied {
            let version = index + 1
            applied = try db.inTransaction(.immediate) {
                // Another connection may have migrated while this one waited for the lock.
                let current = try appliedVersion(in: db)
                guard current < version else { return current }
                try migration.body(db)
                // PRAGMA takes no parameters; `version` is an integer, so this is safe.
                try db.execute("PRAGMA user_version = \(version)")
                return version
            }
        }
    }

    /// A database whose schema version is above every migration registered: a newer build of
    /// the program wrote it.
    public struct NewerSchemaError: Error, CustomStringConvertible {
        /// The database's schema version (`PRAGMA user_version`).
        public let version: Int
        /// The highest version this migrator knows: how many migrations it has.
        public let knownVersion: Int

        public var description: String {
            "the database's schema version is \(version), newer than this program knows (up to \(knownVersion))"
        }
    }

    /// Applies every pending migration using one of the pool's connections.
    ///
    /// - Parameter pool: The pool whose database to migrate.
    /// - Throws: As `migrate(_:)` with a `Database` does, or ``SQLiteError`` if no connection
    ///   can be borrowed.
    public func migrate(_ pool: DatabasePool) throws {
        try pool.withConnection { db in try migrate(db) }
    }
}
