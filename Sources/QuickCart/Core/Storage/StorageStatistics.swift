/// What storage tells the operator's metrics about itself.
public struct StorageStatistics: Sendable {
    /// Borrowers that found every pooled connection lent and had to wait, since storage opened.
    public var connectionWaits: Int
    /// Writers that waited for another writer of this process (SQLite's one write turn); `nil`
    /// where writers do not queue in the process.
    public var writerWaits: Int?
    /// The notification listener of a backend shared by several instances; `nil` for SQLite.
    public var listener: Listener?

    /// The listener's state.
    public struct Listener: Sendable {
        /// Whether it is connected with its `LISTEN`s in force.
        public var isListening: Bool
        /// How many times it established them (one more after each reconnection).
        public var sessions: Int
        /// Seconds a notification this instance sent took to come back through the database,
        /// last measured on the current connection; `nil` before one returned there, and while
        /// the listener is not listening.
        public var notificationLagSeconds: Double?
    }
}
