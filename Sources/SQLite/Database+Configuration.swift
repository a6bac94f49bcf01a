extension Database {
    /// Options applied to every connection when it opens.
    ///
    /// Every connection always gets WAL journaling (unless ``readOnly``), `synchronous=NORMAL`
    /// and enforced foreign keys; these options cover what legitimately varies.
    ///
    /// ```swift
    /// var configuration = Database.Configuration()
    /// configuration.busyTimeout = .seconds(2)
    /// configuration.prepareConnection = { db in try db.execute(sql: "PRAGMA cache_size = -8000") }
    /// let pool = try DatabasePool(path: "shop.sqlite", configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// How long a connection waits for another connection's lock before failing with
        /// ``SQLiteError/busy``. Defaults to 5 seconds.
        public var busyTimeout: Duration

        /// How many prepared statements each connection keeps for reuse. When full, the
        /// cache is emptied and refills with what is in use, which bounds memory if an
        /// application builds SQL text dynamically. Defaults to 100.
        public var statementCacheCapacity: Int

        /// Runs once on every new connection after the standard pragmas, for
        /// application-specific setup. An error fails the open.
        public var prepareConnection: (@Sendable (Database) throws -> Void)?

        /// The permission bits a database file gets when opening creates it, such as `0o600`
        /// for a file no other local user may read (SQLite gives its `-wal` and `-shm` files
        /// the database file's permissions, so those follow). An existing file keeps its own.
        /// `nil`, the default, leaves it to SQLite (`0o644` less the umask). Ignored for
        /// `:memory:` and `file:` URIs.
        public var fileMode: UInt32?

        /// Whether opening creates a missing file. `false` makes a missing file an error
        /// (``SQLiteError`` `cantOpen`), for tools that must work on an existing database only.
        /// Defaults to `true`.
        public var createsFile = true

        /// Whether the connection only reads: the file is opened read-only (a missing file is an
        /// error) and its journal mode is left as it is, never switched to WAL, so opening it
        /// writes nothing to it. For checking or copying a file that must stay as it is.
        /// Defaults to `false`.
        public var readOnly = false

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - busyTimeout: How long to wait for another connection's lock.
        ///   - statementCacheCapacity: How many prepared statements to keep per connection.
        ///   - prepareConnection: Extra setup for every new connection.
        ///   - fileMode: The permission bits of a database file the open creates.
        public init(
            busyTimeout: Duration = .milliseconds(5000),
            statementCacheCapacity: Int = 100,
            prepareConnection: (@Sendable (Database) throws -> Void)? = nil,
            fileMode: UInt32? = nil
        ) {
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.prepareConnection = prepareConnection
            self.fileMode = fileMode
        }

        /// The busy timeout in whole milliseconds, clamped to what SQLite accepts.
        var busyTimeoutMilliseconds: Int32 {
            let milliseconds = busyTimeout / .milliseconds(1)
            if milliseconds >= Double(Int32.max) { return .max }
            return milliseconds > 0 ? Int32(milliseconds) : 0
        }
    }
}
