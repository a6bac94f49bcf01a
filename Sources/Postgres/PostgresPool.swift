import ConnectionPooling
import Synchronization

/// A thread-safe pool of ``PostgresConnection``s to one database, for a multi-threaded
/// server.
///
/// Each call borrows an idle connection (opening one on demand, up to
/// ``maximumConnections``), lends it to the closure on the calling thread, and takes it
/// back. A connection that broke is discarded instead of returned, and an idle one the
/// server ended meanwhile is discarded when next taken, so after PostgreSQL restarts the
/// next request gets a fresh connection: the process never needs a restart.
///
/// ```swift
/// let pool = try PostgresPool(connectionString: "postgres://shop@127.0.0.1/shop")
/// try migrator.migrate(pool)
///
/// // In a request handler, on any thread:
/// let items = try pool.withConnection { connection in
///     try connection.fetchAll("SELECT sku, qty FROM cart_items WHERE cart_id = $1", cartID) { row in
///         CartItem(sku: try row.string(0), quantity: try row.int(1))
///     }
/// }
/// try pool.transaction { connection in
///     try connection.execute("UPDATE cart_items SET qty = qty + 1 WHERE cart_id = $1 AND sku = $2", cartID, sku)
/// }
/// ```
///
/// The lent connection must not escape its closure, and the closure must not borrow from
/// the pool again: with every connection lent, a nested borrow waits for itself until
/// ``waitTimeout``.
///
/// While the database is unreachable, calls fail with an error whose
/// ``PostgresError/isUnavailable`` is `true`. A refused connection fails at once, but a
/// host that drops packets (or does not answer) makes an attempt wait for the connect
/// timeout. So that such a host does not tie up the worker threads one by one, after a
/// failed attempt a borrower needing a new connection fails at once, without trying, while
/// another borrower's attempt is under way, and for as long as the failed attempt took (at
/// most ``reconnectDelay``). A refused attempt takes next to no time, so a restarted local
/// server is used again at once. A server that takes connections but stopped answering on
/// them (a hung host, a paused process) is noticed by the connections'
/// ``PostgresConnection/responseTimeout``: the first statement left unanswered closes the idle
/// connections and makes borrowers fail at once for ``reconnectDelay`` too.
///
/// ### Locking
/// The pool's mutexes only guard the list of idle connections and the last attempt to open
/// one, for a few instructions each; no lock is held while a connection opens or a query
/// runs. A semaphore counts free slots.
public final class PostgresPool: Sendable {
    /// The most connections open at once, and so the most concurrent borrowers.
    public let maximumConnections: Int

    /// How long a borrower waits for a free connection when all are lent before failing
    /// with ``PostgresError/Kind/poolTimeout``.
    public let waitTimeout: Duration

    /// The longest time after a failed attempt to open a connection during which borrowers
    /// needing a new one fail at once (as unavailable) instead of trying again.
    public let reconnectDelay: Duration

    /// The options every connection is opened with.
    public let configuration: PostgresConnection.Configuration

    /// ``waitTimeout`` in whole milliseconds, worked out only for a borrower that waits: the
    /// division costs about 190 instructions.
    private var waitTimeoutMilliseconds: Int { Int(waitTimeout / .milliseconds(1)) }

    /// Borrowers that found every connection lent and had to wait for one, since the pool opened.
    public var connectionWaitCount: Int { freeSlots.waitCount }

    /// Private, so it cannot be printed by accident: it may hold a password.
    private let connectionString: String
    private let freeSlots: CountingSemaphore
    /// A connection is idle there or lent to one thread, for the duration of a non-escaping
    /// closure.
    private let idle = IdleConnections<PostgresConnection>()
    private let connects = Mutex(Connects())

    private struct Connects {
        /// When opening a connection last failed, for how long borrowers then fail at once,
        /// and how it failed; `nil` after a success.
        var lastFailure: (at: ContinuousClock.Instant, quiet: Duration, error: PostgresError)?
        /// Attempts to open a connection under way.
        var underWay = 0
    }

    // MARK: - Creating and closing

    /// Creates a pool. No connection is opened yet: the first borrower opens one, so a
    /// server can start while the database is still down.
    ///
    /// - Parameters:
    ///   - connectionString: A `postgres://` URL or a libpq keyword/value string.
    ///   - maximumConnections: The most connections open at once; at least 1. Match it to
    ///     the server's worker threads, and keep the total of all instances under the
    ///     server's `max_connections`.
    ///   - waitTimeout: How long a borrower waits for a free connection.
    ///   - reconnectDelay: The longest time after a failed connection attempt during which
    ///     borrowers fail at once.
    ///   - configuration: Options for every connection.
    /// - Throws: ``PostgresError`` (misuse) if the connection string does not parse.
    public init(
        connectionString: String,
        maximumConnections: Int = 8,
        waitTimeout: Duration = .seconds(5),
        reconnectDelay: Duration = .seconds(1),
        configuration: PostgresConnection.Configuration = PostgresConnection.Configuration()
    ) throws {
        precondition(maximumConnections > 0, "a PostgresPool needs at least one connection")
        try PostgresConnection.validate(connectionString)
        self.connectionString = connectionString
        self.maximumConnections = maximumConnections
        self.waitTimeout = waitTimeout
        self.reconnectDelay = reconnectDelay
        self.configuration = configuration
        self.freeSlots = CountingSemaphore(value: maximumConnections)
    }

    /// Closes the idle connections now, and each lent one when it comes back. Later calls
    /// throw ``PostgresError/Kind/misuse``.
    public func close() {
        idle.close { $0.close() }
    }

    /// How many connections are idle in the pool right now.
    public var idleConnectionCount: Int { idle.count }

    // MARK: - Borrowing

    /// Lends a connection to `body` on the calling thread, then takes it back.
    ///
    /// The connection is outside any transaction; each statement commits by itself unless
    /// `body` opens one (prefer ``transaction(_:maximumAttempts:_:)``).
    ///
    /// - Parameter body: The work; it must not let the connection escape.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgresError`` if the pool is closed (misuse), no connection frees up
    ///   within ``waitTimeout`` (pool timeout), or a new connection cannot be opened
    ///   (connection failed); otherwise what `body` throws.
    @discardableResult
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Runs `body` in a transaction on a borrowed connection: commits if it returns, rolls
    /// back if it throws, and reruns it on a serialization failure or deadlock, as
    /// ``PostgresConnection/inTransaction(_:maximumAttempts:_:)`` does.
    ///
    /// If the outermost `BEGIN` itself finds the connection dead (the server restarted since
    /// it was last used and the idle check could not tell), the transaction is tried once
    /// more on a new connection: `body` had not started, so this cannot run its work twice.
    /// A connection lost later, even at a nested transaction's `SAVEPOINT` (operation
    /// `savepoint`), is never rerun.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level.
    ///   - maximumAttempts: How many runs at most on a retryable failure; at least 1.
    ///   - body: The work; it may run several times, so it must have no effect outside
    ///     the database that a rerun would repeat.
    /// - Returns: What the successful run of `body` returns.
    /// - Throws: As ``withConnection(_:)`` does, or the transaction's error.
    @discardableResult
    public func transaction<T>(
        _ isolation: IsolationLevel = .readCommitted,
        maximumAttempts: Int = 3,
        _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        var mayRetryDeadConnection = true
        while true {
            do {
                return try withConnection { connection in
                    try connection.inTransaction(isolation, maximumAttempts: maximumAttempts) { try body(connection) }
                }
            } catch let error as PostgresError
                where mayRetryDeadConnection && error.kind == .connectionLost && error.operation == PostgresConnection.Operation.begin {
                mayRetryDeadConnection = false
            }
        }
    }

    /// Checks that the database answers (`SELECT 1`), for a health endpoint.
    ///
    /// - Throws: ``PostgresError`` (``PostgresError/isUnavailable`` when it is down).
    public func ping() throws {
        try withConnection { connection in try connection.execute(sql: "SELECT 1") }
    }

    // MARK: - Internals

    /// Waits for a free slot, then takes a usable idle connection or opens a new one
    /// outside the mutex. Holding a slot keeps the open connections within the maximum.
    private func checkOut() throws -> PostgresConnection {
        guard freeSlots.wait(milliseconds: waitTimeoutMilliseconds) else {
            throw PostgresError(
                kind: .poolTimeout,
                message: "timed out after \(waitTimeoutMilliseconds) ms waiting for a free connection of the pool",
                operation: "borrow"
            )
        }
        do {
            while let connection = try idle.take(orThrowIfClosed: { PostgresError.misuse("the pool is closed", operation: "borrow") }) {
                if connection.isUsableWhileIdle {
                    return connection
                }
                connection.close()
            }
            return try openConnection()
        } catch {
            freeSlots.signal()
            throw error
        }
    }

    /// Opens a new connection, unless the last attempt failed and another is under way or
    /// the failure is too recent (see the type's documentation).
    private func openConnection() throws -> PostgresConnection {
        let start = ContinuousClock.now
        let skipped = connects.withLock { connects -> PostgresError? in
            if let failure = connects.lastFailure, connects.underWay > 0 || start - failure.at < failure.quiet {
                let milliseconds = Int((start - failure.at) / .milliseconds(1))
                return PostgresError(
                    kind: .connectionFailed,
                    message: "not tried: the last attempt, \(milliseconds) ms ago, failed: \(failure.error.message)",
                    operation: PostgresConnection.Operation.connect
                )
            }
            connects.underWay += 1
            return nil
        }
        if let skipped { throw skipped }
        do {
            let connection = try PostgresConnection(connectionString: connectionString, configuration: configuration)
            connects.withLock { connects in
                connects.underWay -= 1
                connects.lastFailure = nil
            }
            return connection
        } catch {
            let end = ContinuousClock.now
            connects.withLock { connects in
                connects.underWay -= 1
                if let error = error as? PostgresError, error.kind == .connectionFailed {
                    connects.lastFailure = (end, min(end - start, reconnectDelay), error)
                }
            }
            throw error
        }
    }

    /// A statement went unanswered (``PostgresConnection/responseTimeout``): the server, or
    /// the way to it, has likely hung for the idle connections too. They are closed, and for
    /// ``reconnectDelay`` borrowers fail at once, as after a failed connect, instead of each
    /// waiting out a timeout of its own on a worker thread.
    private func serverStoppedAnswering() {
        let error = PostgresError(kind: .connectionLost, message: "a statement went unanswered", operation: PostgresConnection.Operation.execute)
        connects.withLock { $0.lastFailure = (ContinuousClock.now, reconnectDelay, error) }
        while let connection = try? idle.take(orThrowIfClosed: { PostgresError.misuse("the pool is closed", operation: "borrow") }) {
            connection.close()
        }
    }

    /// Returns a connection to the idle list, clean, or closes it if it broke, is stuck in
    /// a transaction, or the pool has closed. Always frees the slot.
    private func checkIn(_ connection: PostgresConnection) {
        defer { freeSlots.signal() }
        if connection.timedOut { serverStoppedAnswering() }
        // A body that began a transaction by hand and threw must not hand the next
        // borrower a half-done transaction.
        connection.rollbackAfterFailure()
        guard !connection.isBroken, !connection.isInTransaction else {
            connection.close()
            return
        }
        idle.putBack(connection, closing: { $0.close() })
    }
}
