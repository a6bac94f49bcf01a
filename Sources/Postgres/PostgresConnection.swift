import CPostgres
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PostgreSQL server, through libpq.
///
/// A `PostgresConnection` is deliberately not `Sendable`: libpq allows one thread at a time
/// per connection. A multi-threaded server shares connections through ``PostgresPool``,
/// which lends each to one thread at a time.
///
/// Every parameterised query is prepared once per connection (`PQprepare`) and executed
/// with `PQexecPrepared` from then on, so the server parses and plans each SQL text once.
///
/// ```swift
/// let connection = try PostgresConnection(connectionString: "postgres://shop@127.0.0.1/shop")
/// try connection.execute("INSERT INTO carts (owner) VALUES ($1)", owner)
/// let count: Int? = try connection.fetchValue("SELECT count(*) FROM carts")
/// ```
public final class PostgresConnection {
    /// Options applied to every connection when it opens.
    public struct Configuration: Sendable {
        /// How long opening a connection may take before it fails with
        /// ``PostgresError/Kind/connectionFailed``. libpq counts whole seconds, at least 2.
        /// A `connect_timeout` in the connection string wins. Defaults to 5 seconds.
        public var connectTimeout: Duration

        /// How many prepared statements each connection keeps. When full, all are
        /// deallocated and the cache refills with what is in use, which bounds server
        /// memory if an application builds SQL text dynamically. Defaults to 200.
        public var statementCacheCapacity: Int

        /// Runs once on every new connection, for application-specific setup (`SET
        /// statement_timeout = …`, ...). An error fails the open.
        public var prepareConnection: (@Sendable (PostgresConnection) throws -> Void)?

        /// How long a statement waits for the server's answer; `nil` (the default) waits as
        /// long as it takes. Past it the connection is closed and the call fails with
        /// ``PostgresError/Kind/connectionLost`` (unavailable). It bounds a server that stopped
        /// answering, a hung host or a paused process, which TCP keepalives cannot see while
        /// the host's kernel still acknowledges. A connection's ``PostgresConnection/responseTimeout``
        /// starts as this.
        public var responseTimeout: Duration?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - connectTimeout: How long opening may take.
        ///   - statementCacheCapacity: How many prepared statements to keep per connection.
        ///   - prepareConnection: Extra setup for every new connection.
        ///   - responseTimeout: How long a statement waits for the server's answer.
        public init(
            connectTimeout: Duration = .seconds(5),
            statementCacheCapacity: Int = 200,
            prepareConnection: (@Sendable (PostgresConnection) throws -> Void)? = nil,
            responseTimeout: Duration? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.prepareConnection = prepareConnection
            self.responseTimeout = responseTimeout
        }

        /// libpq's `connect_timeout`: whole seconds, rounded up, at least 2 (libpq treats
        /// smaller values as 2 anyway).
        var connectTimeoutSeconds: Int {
            let seconds = (connectTimeout / .seconds(1)).rounded(.up)
            guard seconds < 86_400 else { return 86_400 }
            return max(2, Int(seconds))
        }
    }

    /// A statement prepared on this connection.
    struct PreparedStatement {
        let name: String
        let parameterCount: Int
    }

    /// The options this connection was opened with.
    public let configuration: Configuration

    /// How long each statement waits for the server's answer from now on (`nil`: as long as
    /// it takes); ``Configuration/responseTimeout`` at first. Lift it for work known to take
    /// long, such as a migration waiting for another instance's.
    public var responseTimeout: Duration?

    /// Whether a statement went unanswered for ``responseTimeout``, which closed the connection.
    public internal(set) var timedOut = false

    /// The `PGconn*`, or `nil` once closed.
    var handle: OpaquePointer?
    private var preparedStatements: [String: PreparedStatement] = [:]
    private var preparedStatementCounter = 0

    // MARK: - Opening and closing

    /// Opens a connection and waits until it is ready.
    ///
    /// - Parameters:
    ///   - connectionString: A `postgres://` or `postgresql://` URL, or a libpq
    ///     keyword/value string (`host=… port=… dbname=… user=…`).
    ///   - configuration: Timeout, statement cache size and extra setup.
    /// - Throws: ``PostgresError`` with kind ``PostgresError/Kind/misuse`` if the string
    ///   does not parse, ``PostgresError/Kind/connectionFailed`` if the server cannot be
    ///   reached or refuses the login (neither message holds the password), or whatever
    ///   `prepareConnection` throws. The connection is released before the error is thrown.
    public init(connectionString: String, configuration: Configuration = Configuration()) throws {
        try Self.validate(connectionString)
        // Keywords are processed in order and the later value wins, so the connection
        // string, expanded from "dbname", overrides the defaults placed before it.
        let parameters: [(String, String)] = [
            ("connect_timeout", String(configuration.connectTimeoutSeconds)),
            // Notice a peer that vanished without closing (a cut cable) within a minute,
            // instead of the kernel's default of hours.
            ("keepalives_idle", "30"),
            ("keepalives_interval", "10"),
            ("keepalives_count", "3"),
            ("dbname", connectionString),
        ]
        let handle = Self.withCStringArrays(parameters) { keywords, values in
            PQconnectdbParams(keywords, values, 1)
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(handle)
            throw PostgresError(kind: .connectionFailed, message: PostgresError.oneLine(message), operation: Operation.connect)
        }
        cpostgres_silence_notices(handle)
        self.handle = handle
        self.configuration = configuration
        responseTimeout = configuration.responseTimeout
        do {
            try configuration.prepareConnection?(self)
        } catch {
            close()
            throw error
        }
    }

    /// Checks the syntax with libpq's own parser, so a typo is reported as such rather than
    /// as a failed connection. libpq's message quotes pieces of the string, any of which may
    /// hold the password (a `"` in it defeats blanking the quoted parts), so the error says
    /// only that the string is malformed, and shows it with its password redacted.
    static func validate(_ connectionString: String) throws(PostgresError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(connectionString, &errorMessage)
        defer {
            PQconninfoFree(options)
            PQfreemem(errorMessage)
        }
        guard options == nil else { return }
        let redacted = PostgresConnectionString.redactingPassword(connectionString)
        throw .misuse(
            redacted == PostgresConnectionString.unparseable
                ? "malformed connection string" : "malformed connection string: \(PostgresError.oneLine(redacted))",
            operation: Operation.connect
        )
    }

    deinit {
        close()
    }

    /// Closes the connection. Later calls throw ``PostgresError/Kind/misuse``; closing
    /// twice is harmless.
    public func close() {
        guard let handle else { return }
        self.handle = nil
        preparedStatements.removeAll()
        PQfinish(handle)
    }

    // MARK: - State

    /// Whether ``close()`` was called.
    public var isClosed: Bool { handle == nil }

    /// Whether the connection is closed or libpq knows it to be broken (the server went
    /// away, the network failed). A broken connection never recovers; open a new one.
    public var isBroken: Bool {
        guard let handle else { return true }
        return PQstatus(handle) != CONNECTION_OK
    }

    /// Whether a transaction is open, including one aborted by a failed statement and
    /// waiting for its ROLLBACK.
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the open transaction had a statement fail, so it can only roll back.
    public var isTransactionFailed: Bool {
        guard let handle else { return false }
        return PQtransactionStatus(handle) == PQTRANS_INERROR
    }

    /// The process ID of the server backend serving this connection
    /// (`pg_backend_pid()`), for `pg_terminate_backend` and logs; 0 once closed.
    public var backendProcessID: Int32 {
        handle.map { PQbackendPID($0) } ?? 0
    }

    // MARK: - Internals

    /// The names of the operations in errors.
    enum Operation {
        static let connect = "connect"
        static let prepare = "prepare"
        static let execute = "execute"
        static let begin = "begin"
        /// A nested transaction's `SAVEPOINT`: unlike `begin`, work may precede it.
        static let savepoint = "savepoint"
        static let commit = "commit"
        static let listen = "listen"
        static let receive = "receive notifications"
    }

    /// The open handle.
    ///
    /// - Throws: ``PostgresError`` (misuse) if the connection is closed.
    func openHandle(operation: String, sql: String? = nil) throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .misuse("the connection is closed", operation: operation, sql: sql) }
        return handle
    }

    /// The single gate every `PGresult` passes through: a success is returned for
    /// reading, anything else is cleared and thrown as a ``PostgresError``.
    func check(_ result: OpaquePointer?, operation: String, sql: String?) throws(PostgresError) -> OpaquePointer {
        if let result {
            let status = PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
                return result
            }
        }
        let error = makeError(result, operation: operation, sql: sql)
        PQclear(result)
        throw error
    }

    /// Builds the error for a failed result (or for the missing result of a lost
    /// connection) while libpq still describes it.
    func makeError(_ result: OpaquePointer?, operation: String, sql: String?) -> PostgresError {
        let sqlState = result.flatMap { cpostgres_result_sqlstate($0) }.map { String(cString: $0) }
        var message = result.flatMap { cpostgres_result_primary_message($0) }.map { String(cString: $0) }
            ?? handle.map { String(cString: PQerrorMessage($0)) }
            ?? "the connection is closed"
        message = PostgresError.oneLine(message)
        if message.isEmpty { message = "no result from the server" }
        // Data exceptions quote the offending value ("invalid input syntax for type
        // integer: \"…\""), which may be a bound parameter, a token or personal data.
        if let sqlState, PostgresError.Code.dataException ~= PostgresError.Code(rawValue: sqlState) {
            message = PostgresError.blankingQuotedParts(of: message)
        }
        let kind: PostgresError.Kind = isBroken ? .connectionLost : .server
        return PostgresError(kind: kind, sqlState: sqlState, message: message, operation: operation, sql: sql)
    }

    /// Prepares `sql` on first use and remembers it, with its parameter count, by text.
    func preparedStatement(for sql: String) throws(PostgresError) -> PreparedStatement {
        if let statement = preparedStatements[sql] {
            return statement
        }
        if preparedStatements.count >= configuration.statementCacheCapacity {
            PQclear(try exchange(operation: Operation.prepare, sql: sql) { PQsendQuery($0, "DEALLOCATE ALL") })
            preparedStatements.removeAll(keepingCapacity: true)
        }
        preparedStatementCounter += 1
        let name = "s\(preparedStatementCounter)"
        PQclear(try exchange(operation: Operation.prepare, sql: sql) { PQsendPrepare($0, name, sql, 0, nil) })
        // One extra round trip per SQL text and connection, so an argument count mismatch
        // is reported as this module's misuse instead of the server's protocol violation.
        let description = try exchange(operation: Operation.prepare, sql: sql) { PQsendDescribePrepared($0, name) }
        let statement = PreparedStatement(name: name, parameterCount: Int(PQnparams(description)))
        PQclear(description)
        preparedStatements[sql] = statement
        return statement
    }

    /// Runs a prepared statement with text-format parameters and returns its result,
    /// which the caller must `PQclear`.
    func run(_ sql: String, arguments: [PostgresValue]) throws(PostgresError) -> OpaquePointer {
        let statement = try preparedStatement(for: sql)
        guard arguments.count == statement.parameterCount else {
            throw .misuse(
                "the statement takes \(statement.parameterCount) arguments, but \(arguments.count) were given",
                operation: Operation.execute,
                sql: sql
            )
        }
        // All parameters go in one buffer of NUL-terminated strings; NULL has no entry.
        var buffer: [CChar] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(arguments.count)
        for argument in arguments {
            guard let text = argument.textFormat else {
                offsets.append(nil)
                continue
            }
            guard !text.utf8.contains(0) else {
                throw .misuse("a text argument contains a NUL character, which PostgreSQL cannot store", operation: Operation.execute, sql: sql)
            }
            offsets.append(buffer.count)
            buffer.append(contentsOf: text.utf8CString)
        }
        return try exchange(operation: Operation.execute, sql: sql) { handle in
            buffer.withUnsafeBufferPointer { characters in
                let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                    offset.map { characters.baseAddress! + $0 }
                }
                return pointers.withUnsafeBufferPointer { values in
                    PQsendQueryPrepared(handle, statement.name, Int32(arguments.count), values.baseAddress, nil, nil, 0)
                }
            }
        }
    }

    /// Runs `body` with NULL-terminated C arrays of the keywords and values.
    private static func withCStringArrays<T>(
        _ pairs: [(String, String)],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let keywordPointers = keywords.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        return keywordPointers.withUnsafeBufferPointer { keywordBuffer in
            valuePointers.withUnsafeBufferPointer { valueBuffer in
                body(keywordBuffer.baseAddress!, valueBuffer.baseAddress!)
            }
        }
    }
}

// MARK: - Not Sendable

/// libpq allows one thread at a time per connection; this makes the compiler refuse to
/// send one across isolation domains.
@available(*, unavailable)
extension PostgresConnection: Sendable {}
