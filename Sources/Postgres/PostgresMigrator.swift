/// Brings a PostgreSQL schema up to date with an ordered list of named migrations.
///
/// The n-th registered migration is version n. Applied migrations are recorded in a table
/// (`schema_migrations` by default: version, name, time). Each pending migration runs in
/// its own transaction together with its record, so it applies entirely or not at all.
/// The whole run holds a session-level advisory lock (`pg_advisory_lock`), so instances
/// that start together migrate exactly once: the others wait, then find nothing to do.
///
/// ```swift
/// var migrator = PostgresMigrator(lockKey: 0x4D59_4150_504D_4947) // "MYAPPMIG" in ASCII
/// migrator.registerMigration("v1-create-carts") { connection in
///     try connection.execute(sql: "CREATE TABLE carts (id bigserial PRIMARY KEY, owner text NOT NULL)")
/// }
/// migrator.registerMigration("v2-cart-note") { connection in
///     try connection.execute(sql: "ALTER TABLE carts ADD COLUMN note text")
/// }
/// try migrator.migrate(pool)
/// ```
///
/// Never reorder, remove or edit a migration once it has shipped; add a new one. A
/// database whose recorded names differ from the registered ones is refused.
public struct PostgresMigrator: Sendable {
    private struct Migration: Sendable {
        let name: String
        let body: @Sendable (PostgresConnection) throws -> Void
    }

    /// The table recording applied migrations.
    public let tableName: String

    /// The key of the advisory lock held while migrating.
    public let lockKey: Int64

    private var migrations: [Migration] = []

    /// Creates a migrator with no migrations.
    ///
    /// - Parameters:
    ///   - lockKey: The advisory lock key: every instance of the application must use the
    ///     same, and other applications sharing the database a different one (advisory lock
    ///     keys are database-wide).
    ///   - tableName: The table recording applied migrations; created when missing.
    public init(lockKey: Int64, tableName: String = "schema_migrations") {
        self.tableName = tableName
        self.lockKey = lockKey
    }

    /// The registered migration names, in order; the n-th is version n.
    public var migrationNames: [String] { migrations.map(\.name) }

    /// Appends a migration; it becomes the next version.
    ///
    /// - Parameters:
    ///   - name: A unique, descriptive name such as `"v1-create-carts"`.
    ///   - body: The schema changes. It runs inside a transaction; it must not begin or
    ///     commit one itself (a nested ``PostgresConnection/inTransaction(_:_:)`` is fine).
    /// - Precondition: No migration with the same name is registered.
    public mutating func registerMigration(_ name: String, _ body: @escaping @Sendable (PostgresConnection) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "migration \"\(name)\" is registered twice")
        migrations.append(Migration(name: name, body: body))
    }

    /// The names of the migrations the database records as applied, in order.
    ///
    /// - Parameter connection: The database to inspect.
    /// - Returns: The applied names; empty for a new database.
    /// - Throws: ``PostgresError`` if they cannot be read.
    public func appliedMigrations(in connection: PostgresConnection) throws -> [String] {
        let exists: Bool = try connection.fetchValue("SELECT to_regclass($1) IS NOT NULL", quotedTableName) ?? false
        guard exists else { return [] }
        return try connection.fetchAll("SELECT name FROM \(quotedTableName) ORDER BY version") { row in try row.string(0) }
    }

    /// Applies every migration the database has not recorded yet, in order, under the
    /// advisory lock.
    ///
    /// - Parameter connection: The database to migrate; it must not be inside a transaction.
    /// - Returns: How many migrations this call applied (0 when another instance did).
    /// - Throws: ``PostgresError`` (misuse) if `connection` is inside a transaction, or if
    ///   the recorded history is not a prefix of the registered migrations; otherwise the
    ///   first error, after that migration is rolled back entirely with its record (the
    ///   ones before it stay applied).
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> Int {
        guard !connection.isInTransaction else {
            throw PostgresError.misuse("cannot migrate inside a transaction: each migration needs a transaction of its own", operation: "migrate")
        }
        // Waiting for another instance's migrations, and rewriting a large table, take as long
        // as they take: no response timeout while migrating.
        let responseTimeout = connection.responseTimeout
        connection.responseTimeout = nil
        defer { connection.responseTimeout = responseTimeout }
        try connection.execute("SELECT pg_advisory_lock($1)", lockKey)
        // If the connection broke, the server released the lock with the session.
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock($1)", lockKey) }
        try connection.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(quotedTableName) (
                version integer PRIMARY KEY,
                name text NOT NULL UNIQUE,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let applied = try appliedMigrations(in: connection)
        // A database migrated by a newer build may know more versions; the shared ones must match.
        let shared = min(applied.count, migrations.count)
        guard applied.prefix(shared) == migrationNames.prefix(shared) else {
            throw inconsistentHistory()
        }
        var count = 0
        for (index, migration) in migrations.enumerated() where index >= applied.count {
            try connection.inTransaction {
                try migration.body(connection)
                try connection.execute("INSERT INTO \(quotedTableName) (version, name) VALUES ($1, $2)", index + 1, migration.name)
            }
            count += 1
        }
        return count
    }

    /// Applies every pending migration using one of the pool's connections.
    ///
    /// - Parameter pool: The pool whose database to migrate.
    /// - Returns: How many migrations this call applied.
    /// - Throws: As `migrate(_:)` with a connection does, or what borrowing throws.
    @discardableResult
    public func migrate(_ pool: PostgresPool) throws -> Int {
        try pool.withConnection { connection in try migrate(connection) }
    }

    private var quotedTableName: String {
        "\"" + tableName.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    private func inconsistentHistory() -> PostgresError {
        .misuse(
            "the migrations recorded in \(tableName) differ from the registered ones; a shipped migration was renamed, removed or reordered",
            operation: "migrate"
        )
    }
}
