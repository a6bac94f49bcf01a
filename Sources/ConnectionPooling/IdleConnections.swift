import Synchronization

/// A pool's idle connections and whether it has closed, under a mutex held only for a few
/// instructions: no connection opens, closes or runs a query under it.
///
/// `Connection` need not be `Sendable` (database connections deliberately are not). The pool
/// upholds the rule instead: a connection is either here, reachable only under the mutex, or
/// lent to exactly one thread for the duration of a non-escaping closure, so no two threads
/// ever use it at once.
///
/// ```swift
/// let idle = IdleConnections<Database>()
/// // Borrowing (an error once the pool has closed; nil when none is idle: open one):
/// let database = try idle.take(orThrowIfClosed: { SQLiteError.misuse("the pool is closed") }) ?? Database(path: path)
/// // Giving it back (closed instead once the pool has closed):
/// idle.putBack(database, closing: { $0.close() })
/// // Closing the pool:
/// idle.close { $0.close() }
/// ```
public struct IdleConnections<Connection>: ~Copyable, Sendable {
    @usableFromInline
    struct State {
        /// Connections not lent right now, most recently returned last.
        @usableFromInline var idle: [Entry]
        @usableFromInline var isClosed = false
    }

    /// A connection moving in or out of the mutex, which only takes `Sendable` values; the
    /// pool's rule (see the type's documentation) makes that safe.
    @usableFromInline
    struct Entry: @unchecked Sendable {
        @usableFromInline let connection: Connection

        @usableFromInline
        init(connection: Connection) {
            self.connection = connection
        }
    }

    @usableFromInline let state: Mutex<State>

    /// Starts with `connections` idle (none by default).
    public init(_ connections: [Connection] = []) {
        state = Mutex(State(idle: connections.map(Entry.init)))
    }

    /// How many connections are idle right now.
    public var count: Int {
        state.withLock { $0.idle.count }
    }

    /// The connection returned most recently, taken out; `nil` when none is idle.
    /// - Throws: What `closed` makes, once ``close(_:)`` has run.
    @inlinable
    public func take<Failure: Error>(orThrowIfClosed closed: () -> Failure) throws(Failure) -> Connection? {
        try state.withLock { state throws(Failure) -> Entry? in
            guard !state.isClosed else { throw closed() }
            return state.idle.popLast()
        }?.connection
    }

    /// Keeps `connection` for the next borrower or, once the pool has closed, hands it to
    /// `close` (outside the mutex).
    @inlinable
    public func putBack(_ connection: Connection, closing close: (Connection) -> Void) {
        let entry = Entry(connection: connection)
        let refused = state.withLock { state -> Entry? in
            guard !state.isClosed else { return entry }
            state.idle.append(entry)
            return nil
        }
        if let refused { close(refused.connection) }
    }

    /// Marks the pool closed, so that ``take(orThrowIfClosed:)`` throws and ``putBack(_:closing:)``
    /// closes from now on, and hands each idle connection to `close` (outside the mutex).
    public func close(_ closeConnection: (Connection) -> Void) {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for entry in idle { closeConnection(entry.connection) }
    }
}
