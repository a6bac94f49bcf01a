import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One connection to an SQLite database file.
///
/// A `Database` is deliberately not `Sendable`: it is opened with `SQLITE_OPEN_NOMUTEX`,
/// so SQLite does no locking of its own and the connection must be used by one thread at
/// a time. A multi-threaded server shares connections through ``DatabasePool``, which
/// lends each to one thread at a time.
///
/// Every connection runs in WAL mode (readers never block the writer nor each other),
/// with `synchronous=NORMAL`, enforced foreign keys, and a busy timeout; a read-only one
/// leaves the file's journal mode as it is. The first connection turns SQLite's memory
/// statistics off for the process.
///
/// ```swift
/// let db = try Database(path: "/var/lib/myapp/data.sqlite")
/// try db.execute("INSERT INTO carts (owner) VALUES (?)", [owner])
/// let id = db.lastInsertRowID
/// let count: Int? = try db.fetchValue("SELECT count(*) FROM carts")
/// ```
public final class Database {
    /// The path (or `file:` URI) the database was opened with.
    public let path: String

    /// The options this connection was opened with.
    public let configuration: Configuration

    let connection: Connection
    private var statementCache: [StatementKey: Statement] = [:]
    /// Cached statements found by where their SQL text is stored, before the cache is asked:
    /// a literal passed again from the same place in the code lands in the same slot and is
    /// recognized by a pointer comparison, for a fraction of a dictionary lookup's cost.
    private var recentStatements = [RecentStatement?](repeating: nil, count: recentSlots)
    private static let recentSlots = 64

    // MARK: - Opening and closing

    /// Opens (creating if missing, unless the configuration says not to or is read-only) the
    /// database at `path` and configures the connection.
    ///
    /// - Parameters:
    ///   - path: A file path, `:memory:`, or a `file:` URI.
    ///   - configuration: Busy timeout, statement cache size and extra setup.
    /// - Throws: ``SQLiteError`` if the file cannot be opened or configured; the
    ///   connection is released before the error is thrown.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        Self.configureProcess
        let creates = configuration.createsFile && !configuration.readOnly
        if creates, let mode = configuration.fileMode { Self.createFile(at: path, mode: mode) }
        var handle: OpaquePointer?
        let access = configuration.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (creates ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let resultCode = sqlite3_open_v2(path, &handle, flags, nil)
        do {
            try Connection.check(resultCode, handle: handle, sql: nil)
        } catch {
            // SQLite allocates a handle even when opening fails; it must still be released.
            sqlite3_close_v2(handle)
            throw SQLiteError(resultCode: error.extendedCode.rawValue, message: "\(error.message): \(path)")
        }
        guard let handle else {
            throw SQLiteError(resultCode: SQLITE_NOMEM, message: "out of memory opening \(path)")
        }
        self.path = path
        self.configuration = configuration
        self.connection = Connection(handle: handle)
        do {
            try configure(handle)
        } catch {
            close()
            throw error
        }
    }

    /// What the process's SQLite is set to, once, before its first connection opens: memory
    /// statistics off. Nothing here reads them (`sqlite3_memory_used`, a soft heap limit), and
    /// keeping them puts a global mutex around each of SQLite's allocations, dozens per
    /// statement where the library is built without lookaside memory (as Debian's is).
    private static let configureProcess: Void = {
        // Fails (and changes nothing) only if something in the process started SQLite first.
        _ = csqlite_disable_memory_statistics()
    }()

    /// Creates the file at `path` with `mode`, unless it exists: SQLite creates files with
    /// fixed permissions. Any failure (the file exists, the folder is missing) is left for
    /// `sqlite3_open_v2` to report.
    private static func createFile(at path: String, mode: UInt32) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    private func configure(_ handle: OpaquePointer) throws {
        try connection.check(sqlite3_extended_result_codes(handle, 1), sql: nil)
        // The timeout comes first: switching a fresh file to WAL takes a lock another
        // connection may be holding at that moment.
        try connection.check(sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds), sql: nil)
        // Switching to WAL writes the file's header: a read-only connection leaves it as it is.
        if !configuration.readOnly { try switchToWAL() }
        try execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
        try configuration.prepareConnection?(self)
    }

    /// Switching a new file to WAL needs an exclusive lock, and SQLite answers BUSY at once
    /// (without calling the busy handler) when another connection is opening the same new
    /// file at that moment: retry for as long as the busy timeout allows.
    private func switchToWAL() throws {
        let deadline = ContinuousClock.now + configuration.busyTimeout
        while true {
            do {
                try execute(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                usleep(2_000)
            }
        }
    }

    deinit {
        close()
    }

    /// Closes the connection. Later calls throw ``SQLiteError/misuse``; closing twice is
    /// harmless.
    ///
    /// Cached statements are finalized first. The handle is closed with
    /// `sqlite3_close_v2`, so a ``Statement`` made with ``makeStatement(sql:)`` and still
    /// alive keeps the memory valid until it is released, instead of making the close fail.
    public func close() {
        for statement in statementCache.values {
            statement.finalize()
        }
        statementCache.removeAll()
        recentStatements = Array(repeating: nil, count: Self.recentSlots)
        connection.close()
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { connection.handle == nil }

    // MARK: - State

    /// The number of rows the most recent INSERT, UPDATE or DELETE changed.
    public var changes: Int {
        connection.handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// The number of rows changed since the connection opened.
    public var totalChanges: Int {
        connection.handle.map { Int(sqlite3_total_changes64($0)) } ?? 0
    }

    /// The rowid of the most recent successful INSERT on this connection, or 0.
    public var lastInsertRowID: Int64 {
        connection.handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Whether the connection cannot write its database (`sqlite3_db_readonly`): it was opened
    /// read-only, or SQLite opened the file for reading only because this process may not write
    /// it, in which case every write fails with ``SQLiteError/readOnly``.
    public var isReadOnly: Bool {
        connection.handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? false
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool {
        connection.handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    // MARK: - Statements

    /// Returns this connection's prepared statement for `sql`, preparing it on first use.
    ///
    /// The same text always yields the same object, reset and with its bindings cleared,
    /// so arguments of a previous use never leak into the next.
    ///
    /// - Parameter sql: Exactly one SQL statement; the text is the cache key.
    /// - Returns: The ready-to-bind statement.
    /// - Throws: ``SQLiteError`` if the SQL does not compile or holds several statements.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[StatementKey(sql)] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try Statement(connection: connection, sql: sql, persistent: true)
        if statementCache.count >= configuration.statementCacheCapacity {
            statementCache.removeAll(keepingCapacity: true)
            recentStatements = Array(repeating: nil, count: Self.recentSlots)
        }
        statementCache[StatementKey(sql)] = statement
        return statement
    }

    /// Prepares a statement that is not cached; it is finalized when released.
    ///
    /// - Parameter sql: Exactly one SQL statement.
    /// - Returns: The new statement.
    /// - Throws: ``SQLiteError`` if the SQL does not compile or holds several statements.
    public func makeStatement(sql: String) throws -> Statement {
        try Statement(connection: connection, sql: sql, persistent: false)
    }

    /// The cached statement, unless it is mid-iteration — a query run again from inside
    /// its own `fetchAll` map closure — in which case a private statement is used so the
    /// outer iteration is not reset under its feet.
    func statementForRunning(_ sql: String) throws -> Statement {
        // Finding the statement is a visible part of a short query's cost: a slot first, one
        // lookup at most. No reset or clearing here: running resets the statement and binds
        // every parameter anyway.
        let slot = Self.recentSlot(of: sql)
        let cached: Statement
        if let slot, let recent = recentStatements[slot], recent.sql == sql {
            cached = recent.statement
        } else {
            cached = try statementCache[StatementKey(sql)] ?? cachedStatement(sql: sql)
            if let slot { recentStatements[slot] = RecentStatement(sql: sql, statement: cached) }
        }
        return cached.isBusy ? try makeStatement(sql: sql) : cached
    }

    /// The slot of `recentStatements` for a text, from the address of its bytes; `nil` for a
    /// text too short to be stored apart from its `String` (it has no lasting address).
    private static func recentSlot(of sql: String) -> Int? {
        guard let address = sql.utf8.withContiguousStorageIfAvailable({ $0.baseAddress.map(UInt.init(bitPattern:)) }) ?? nil,
              sql.utf8.count > 15 else { return nil }
        return Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10)) & (recentSlots - 1)
    }

    // MARK: - Executing

    /// Runs a script of zero or more statements separated by semicolons, such as a schema.
    ///
    /// Statements run in order and stop at the first error; nothing is cached and no
    /// arguments are bound, so never build the script from user input.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE carts (id INTEGER PRIMARY KEY, owner TEXT NOT NULL);
    ///     CREATE INDEX carts_owner ON carts (owner);
    ///     """)
    /// ```
    ///
    /// - Parameter script: The SQL text.
    /// - Throws: ``SQLiteError`` carrying the text of the failing statement.
    public func execute(sql script: String) throws {
        let handle = try connection.openHandle(sql: script)
        try script.withCString { start in
            var text = start
            while text.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let resultCode = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
                defer { sqlite3_finalize(statement) }
                // On a compile error the failing statement is the start of the remaining text.
                try connection.check(resultCode, sql: String(String(cString: text).drop(while: \.isWhitespace)))
                if let statement {
                    while try connection.check(sqlite3_step(statement), sql: String(cString: sqlite3_sql(statement))) == SQLITE_ROW {}
                }
                guard let tail, tail != text else { break }
                text = tail
            }
        }
    }

    /// Runs one statement with positional arguments, discarding any rows.
    ///
    /// ```swift
    /// try db.execute("UPDATE carts SET note = ? WHERE id = ?", [note, cartID])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement with `?` parameters.
    ///   - arguments: One value per parameter; `nil` binds NULL.
    /// - Throws: ``SQLiteError`` if preparation, binding or execution fails.
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try statementForRunning(sql).execute(arguments.values)
    }
}

// MARK: - Statement cache key

/// A statement in ``Database``'s slots of recently run ones, with the text it was found by.
private struct RecentStatement {
    let sql: String
    let statement: Statement
}

/// The statement cache's key: the SQL text, hashed by its length and its first and last
/// bytes only. Hashing a whole query's text cost as much as a short query's own lookup, and
/// texts that share length and ends (rare) still tell apart by `==`, which for the same
/// literal passed again is a comparison of two pointers.
private struct StatementKey: Hashable {
    let sql: String

    init(_ sql: String) {
        self.sql = sql
    }

    static func == (lhs: StatementKey, rhs: StatementKey) -> Bool {
        lhs.sql == rhs.sql
    }

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            let sampled = Self.sampledBytes
            guard bytes.count > 2 * sampled else {
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                return
            }
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<sampled])))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[(bytes.count - sampled)...])))
        }
    }

    /// How many bytes of each end are hashed: enough to take in the table and the WHERE clause.
    private static let sampledBytes = 24
}

// MARK: - Not Sendable

/// A connection opened with `SQLITE_OPEN_NOMUTEX` must never be used from two threads at
/// once; this makes the compiler refuse to send one across isolation domains.
@available(*, unavailable)
extension Database: Sendable {}
