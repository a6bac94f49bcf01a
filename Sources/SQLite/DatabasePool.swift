import ConnectionPooling

/// A thread-safe pool of ``Database`` connections to one file, for a multi-threaded server.
///
/// Each call borrows an idle connection (opening one lazily, up to
/// ``maximumConnections``), lends it to the closure on the calling thread, and takes it
/// back. In WAL mode readers never wait for the writer, and each server thread
/// effectively keeps a warm connection with its cached statements.
///
/// ```swift
/// let pool = try DatabasePool(path: "/var/lib/myapp/data.sqlite")
/// try migrator.migrate(pool)
///
/// // In a request handler, on any thread:
/// let items = try pool.read { db in
///     try db.fetchAll("SELECT sku, qty FROM cart_items WHERE cart_id = ?", [cartID]) { row in
///         CartItem(sku: try row.string(0), quantity: try row.int(1))
///     }
/// }
/// try pool.write { db in
///     try db.execute("UPDATE cart_items SET qty = qty + 1 WHERE cart_id = ? AND sku = ?", [cartID, sku])
/// }
/// ```
///
/// The lent `Database` must not escape its closure: it is not `Sendable`, and once
/// returned it belongs to the next borrower on another thread. Do not call the pool again
/// from inside a closure either; a nested borrow can wait on the very connection or write
/// turn its caller holds, and would then fail with ``SQLiteError/busy`` after the busy
/// timeout.
///
/// ### Locking
/// The pool's mutex only guards the list of idle connections, for a few instructions;
/// no lock of the pool is held while a connection opens or SQLite works. Two semaphores
/// do the waiting: one counts free connection slots, and one gives writers of this
/// process their turn in order. Writers would be serialized by SQLite anyway; queuing
/// them here means a waiting writer sleeps on a semaphore (woken the moment the previous
/// one commits) instead of polling SQLite's lock with growing sleeps, and it holds no
/// connection that a reader could use meanwhile. Both waits give up after the busy
/// timeout with ``SQLiteError/busy``, as SQLite's own lock wait does.
public final class DatabasePool: Sendable {
    /// The database file path.
    public let path: String

    /// The most connections open at once, and so the most concurrent borrowers.
    public let maximumConnections: Int

    /// The options every connection is opened with.
    public let configuration: Database.Configuration

    /// Counts free connection slots; a borrower waits here when all are lent.
    private let freeSlots: CountingSemaphore
    /// Gives this process's writers one turn at a time.
    private let writerTurn = CountingSemaphore(value: 1)
    /// A connection is idle there or lent by ``withConnection(_:)`` to one thread, for the
    /// duration of a non-escaping closure.
    private let idle: IdleConnections<Database>

    // MARK: - Opening and closing

    /// Creates a pool and opens its first connection.
    ///
    /// Opening one connection now reports a bad path at startup rather than on the first
    /// request, and switches a new file to WAL before concurrent connections race to.
    ///
    /// - Parameters:
    ///   - path: The database file path; created if missing. Not `:memory:`, which would
    ///     give every connection its own empty database.
    ///   - maximumConnections: The most connections open at once; at least 1. Match it to
    ///     the server's worker threads.
    ///   - configuration: Options for every connection.
    /// - Throws: ``SQLiteError`` if the first connection cannot be opened.
    public init(path: String, maximumConnections: Int = 8, configuration: Database.Configuration = Database.Configuration()) throws {
        precondition(maximumConnections > 0, "a DatabasePool needs at least one connection")
        let first = try Database(path: path, configuration: configuration)
        self.path = path
        self.maximumConnections = maximumConnections
        self.configuration = configuration
        self.freeSlots = CountingSemaphore(value: maximumConnections)
        self.idle = IdleConnections([first])
    }

    /// Closes the idle connections now, and each lent one when it comes back. Later calls
    /// throw ``SQLiteError/misuse``.
    public func close() {
        idle.close { $0.close() }
    }

    /// Borrowers that found every connection lent and had to wait for one, since the pool opened.
    public var connectionWaitCount: Int { freeSlots.waitCount }

    /// Writers that found another writer of this process at work and had to wait for their turn.
    public var writerWaitCount: Int { writerTurn.waitCount }

    // MARK: - Borrowing

    /// Lends a connection to `body` on the calling thread, then takes it back.
    ///
    /// The connection is idle or newly opened; if all ``maximumConnections`` are lent, the
    /// call waits for one. `body` must not let the `Database` escape.
    ///
    /// - Parameter body: The work; runs outside any transaction unless it opens one.
    /// - Returns: What `body` returns.
    /// - Throws: ``SQLiteError`` if the pool is closed (misuse), no connection frees up
    ///   within the busy timeout (busy), or a new connection fails to open; otherwise
    ///   what `body` throws.
    public func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try wait(on: freeSlots, for: "a free connection")
        let database: Database
        do {
            database = try checkOut()
        } catch {
            freeSlots.signal()
            throw error
        }
        defer {
            checkIn(database)
            freeSlots.signal()
        }
        return try body(database)
    }

    /// Runs `body` in an immediate transaction on a borrowed connection: commits if it
    /// returns, rolls back if it throws.
    ///
    /// - Parameter body: The reads and writes; they see the latest committed data.
    /// - Returns: What `body` returns.
    /// - Throws: ``SQLiteError`` as ``withConnection(_:)`` and
    ///   ``Database/inTransaction(_:_:)`` do (busy if the write turn does not come within
    ///   the busy timeout); otherwise what `body` throws, after the rollback.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try wait(on: writerTurn, for: "the write turn")
        defer { writerTurn.signal() }
        return try withConnection { database in
            try database.inTransaction(.immediate) { try body(database) }
        }
    }

    /// Runs `body` in a deferred transaction on a borrowed connection, so all its queries
    /// see one consistent snapshot; it never waits for a writer.
    ///
    /// - Parameter body: The queries. Writes belong in ``write(_:)``.
    /// - Returns: What `body` returns.
    /// - Throws: ``SQLiteError`` as ``withConnection(_:)`` does; otherwise what `body` throws.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { database in
            try database.read { try body(database) }
        }
    }

    // MARK: - Internals

    /// Waits for a free slot or turn as long as SQLite waits for its own locks.
    private func wait(on semaphore: borrowing CountingSemaphore, for what: String) throws(SQLiteError) {
        guard semaphore.wait(milliseconds: Int(configuration.busyTimeoutMilliseconds)) else {
            throw SQLiteError(
                resultCode: SQLiteError.busy.rawValue,
                message: "timed out after \(configuration.busyTimeoutMilliseconds) ms waiting for \(what) of the database pool"
            )
        }
    }

    /// Takes an idle connection, or opens a new one outside the mutex. The caller holds a
    /// free slot, so the number of open connections stays within the maximum.
    private func checkOut() throws -> Database {
        if let database = try idle.take(orThrowIfClosed: { SQLiteError.misuse("the database pool is closed") }) {
            return database
        }
        return try Database(path: path, configuration: configuration)
    }

    /// Returns a connection to the idle list, clean, or closes it if the pool has closed.
    private func checkIn(_ database: Database) {
        // A body that closed its connection simply frees the slot.
        guard !database.isClosed else { return }
        // A body that began a transaction by hand and threw must not hand the next
        // borrower a half-done transaction; if even ROLLBACK fails, the connection goes.
        database.rollbackAfterFailure()
        guard !database.isInTransaction else {
            database.close()
            return
        }
        idle.putBack(database, closing: { $0.close() })
    }
}
