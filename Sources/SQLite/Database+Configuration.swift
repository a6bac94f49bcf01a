extension Database {
    /// Options applied to every connection when it opens.
    ///
    /// Every connection always gets WAL journaling, `synchronous=NORMAL` and enforced
    /// foreign keys; these options cover what legitimately varies.
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

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - busyTimeout: How long to wait for another connection's lock.
        ///   - statementCacheCapacity: How many prepared statements to keep per connection.
        ///   - prepareConnection: Extra setup for every new connection.
        public init(
            busyTimeout: Duration = .milliseconds(5000),
            statementCacheCapacity: Int = 100,
            prepareConnection: (@Sendable (Database) throws -> Void)? = nil
        ) {
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.prepareConnection = prepareConnection
        }

        /// The busy timeout in whole milliseconds, clamped to what SQLite accepts.
        var busyTimeoutMilliseconds: Int32 {
            let milliseconds = busyTimeout / .milliseconds(1)
            if milliseconds >= Double(Int32.max) { return .max }
            return milliseconds > 0 ? Int32(milliseconds) : 0
        }
    }
}
