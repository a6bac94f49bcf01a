/// An error reported by PostgreSQL or libpq, or by this module when the API is misused.
///
/// It carries the SQLSTATE (when the server sent one), the server's primary message, the
/// operation that failed and the SQL text involved. It never carries bound parameter
/// values nor a password: those end up in logs. For the same reason, the message of a
/// data exception (SQLSTATE class 22, such as `invalid input syntax for type integer:
/// "…"`), which quotes the offending value, has its quoted parts blanked out.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO users (email) VALUES ($1)", email)
/// } catch PostgresError.uniqueViolation {
///     // The e-mail address is taken.
/// } catch let error as PostgresError where error.isUnavailable {
///     // The database is down or unreachable: answer 503 and try again later.
/// }
/// ```
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; the SQLSTATE refines ``Kind/server``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case server = "server error"
            case connectionFailed = "connection failed"
            case connectionLost = "connection lost"
            case poolTimeout = "pool timeout"
            case misuse = "misuse"
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// The server answered with an error; see ``PostgresError/sqlState``.
        public static let server = Kind(.server)
        /// A new connection could not be established (refused, unreachable, authentication).
        public static let connectionFailed = Kind(.connectionFailed)
        /// An established connection broke, or the server ended it.
        public static let connectionLost = Kind(.connectionLost)
        /// Every connection of a ``PostgresPool`` stayed busy for the whole wait.
        public static let poolTimeout = Kind(.poolTimeout)
        /// The API was misused: a closed connection or pool, an argument count mismatch,
        /// a commit after a failed statement, an inconsistent migration history.
        public static let misuse = Kind(.misuse)

        /// The kind's name, e.g. `connection lost`.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public let kind: Kind

    /// The five-character SQLSTATE, such as `23505`; `nil` for failures that never reached
    /// the server (a refused connection, a misuse).
    public let sqlState: String?

    /// The server's primary message (or libpq's, or this module's), on one line.
    public let message: String

    /// What was being done: `connect`, `prepare`, `execute`, `begin`, `commit`, `listen`, ...
    public let operation: String

    /// The SQL text being prepared or run, if any. Bound values are never included.
    public let sql: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What kind of failure.
    ///   - sqlState: The SQLSTATE, if the server sent one.
    ///   - message: A readable explanation that holds no secret.
    ///   - operation: What was being done.
    ///   - sql: The SQL text involved, if any.
    public init(kind: Kind, sqlState: String? = nil, message: String, operation: String, sql: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.operation = operation
        self.sql = sql
    }

    /// For example: `execute failed: server error 23505: duplicate key value violates unique constraint "users_email_key" — SQL: INSERT …`.
    public var description: String {
        var text = "\(operation) failed: \(kind)"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let sql { text += " — SQL: \(sql)" }
        return text
    }

    // MARK: - Classification

    /// Whether the database cannot be reached right now, so the request should be answered
    /// with 503 and tried again later: a failed or lost connection, SQLSTATE class 08
    /// (connection exception), 57P01–57P03 (the server is shutting down, crashed or starting
    /// up), 53300 (too many connections), or a pool that had no connection free in time.
    public var isUnavailable: Bool {
        switch kind {
        case .connectionFailed, .connectionLost, .poolTimeout:
            return true
        default:
            guard let code else { return false }
            return switch code {
            case .connectionException, .adminShutdown, .crashShutdown, .cannotConnectNow, .tooManyConnections: true
            default: false
            }
        }
    }

    /// Whether a SERIALIZABLE or REPEATABLE READ transaction lost a race (SQLSTATE 40001).
    public var isSerializationFailure: Bool { has(.serializationFailure) }

    /// Whether the transaction was chosen as a deadlock victim (SQLSTATE 40P01).
    public var isDeadlock: Bool { has(.deadlockDetected) }

    /// Whether rerunning the whole transaction may succeed: a serialization failure or a
    /// deadlock. ``PostgresConnection/inTransaction(_:maximumAttempts:_:)`` retries these.
    public var isTransactionRetryable: Bool { isSerializationFailure || isDeadlock }

    /// Whether a UNIQUE or PRIMARY KEY constraint failed (SQLSTATE 23505).
    public var isUniqueViolation: Bool { has(.uniqueViolation) }

    /// Whether any integrity constraint failed (SQLSTATE class 23: unique, foreign key,
    /// not null, check, exclusion).
    public var isConstraintViolation: Bool { has(.integrityConstraintViolation) }

    // MARK: - Building

    static func misuse(_ message: String, operation: String, sql: String? = nil) -> PostgresError {
        PostgresError(kind: .misuse, message: message, operation: operation, sql: sql)
    }

    /// The message with every double-quoted part blanked, for messages that quote values.
    static func blankingQuotedParts(of message: String) -> String {
        var result = ""
        var inQuotes = false
        for character in message {
            if character == "\"" {
                result.append(inQuotes ? "…\"" : "\"")
                inQuotes.toggle()
            } else if !inQuotes {
                result.append(character)
            }
        }
        if inQuotes { result.append("…") }
        return result
    }

    /// libpq's messages end with a newline and may span lines; errors are one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.joined(separator: " ")
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return text
    }
}
