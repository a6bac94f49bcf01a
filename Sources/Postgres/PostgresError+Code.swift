extension PostgresError {
    /// A SQLSTATE by name: a class (its first two characters, such as ``integrityConstraintViolation``,
    /// `23`) or one condition in it (``uniqueViolation``, `23505`), as PostgreSQL's appendix
    /// "PostgreSQL Error Codes" names them.
    ///
    /// Use them as `catch` patterns through ``PostgresError``, or in a `switch` over ``code``;
    /// a class matches every condition in it:
    ///
    /// ```swift
    /// do {
    ///     try connection.execute("INSERT INTO users (email) VALUES ($1)", email)
    /// } catch PostgresError.uniqueViolation {
    ///     // The e-mail address is taken.
    /// } catch PostgresError.integrityConstraintViolation {
    ///     // Another constraint failed.
    /// }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The SQLSTATE as PostgreSQL sends it (five characters), or a class's two.
        public let rawValue: String

        /// Wraps a SQLSTATE (`"23505"`) or a class (`"23"`).
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Whether this names a whole class rather than one condition.
        public var isClass: Bool { rawValue.utf8.count == 2 }

        /// The class the code belongs to: its first two characters (`23` of `23505`).
        public var errorClass: Code { Code(rawValue: String(rawValue.prefix(2))) }

        /// The SQLSTATE itself.
        public var description: String { rawValue }

        // MARK: - Classes

        /// `08`: the connection broke or could not be made.
        public static let connectionException = Code(rawValue: "08")
        /// `22`: a value that does not fit (bad input syntax, out of range, division by zero).
        public static let dataException = Code(rawValue: "22")
        /// `23`: an integrity constraint failed (unique, foreign key, not null, check, exclusion).
        public static let integrityConstraintViolation = Code(rawValue: "23")
        /// `40`: the transaction was rolled back (serialization failure, deadlock).
        public static let transactionRollback = Code(rawValue: "40")
        /// `53`: the server is out of a resource (disk, memory, connections).
        public static let insufficientResources = Code(rawValue: "53")

        // MARK: - Conditions

        /// `23505`: a UNIQUE or PRIMARY KEY constraint failed.
        public static let uniqueViolation = Code(rawValue: "23505")
        /// `22P02`: a value's text cannot be read as its type.
        public static let invalidTextRepresentation = Code(rawValue: "22P02")
        /// `25006`: a write in a read-only transaction (a standby, or read-only by setting).
        public static let readOnlySQLTransaction = Code(rawValue: "25006")
        /// `40001`: a SERIALIZABLE or REPEATABLE READ transaction lost a race.
        public static let serializationFailure = Code(rawValue: "40001")
        /// `40P01`: the transaction was chosen as a deadlock victim.
        public static let deadlockDetected = Code(rawValue: "40P01")
        /// `42601`: the SQL does not parse.
        public static let syntaxError = Code(rawValue: "42601")
        /// `42P01`: no such table.
        public static let undefinedTable = Code(rawValue: "42P01")
        /// `53100`: the disk is full.
        public static let diskFull = Code(rawValue: "53100")
        /// `53200`: the server is out of memory.
        public static let outOfMemory = Code(rawValue: "53200")
        /// `53300`: the server takes no more connections.
        public static let tooManyConnections = Code(rawValue: "53300")
        /// `55P03`: a lock could not be had within `lock_timeout` (or `NOWAIT`).
        public static let lockNotAvailable = Code(rawValue: "55P03")
        /// `57014`: the statement was cancelled (`statement_timeout`, or by request).
        public static let queryCanceled = Code(rawValue: "57014")
        /// `57P01`: an administrator shut the server down.
        public static let adminShutdown = Code(rawValue: "57P01")
        /// `57P02`: the server is restarting after another process crashed.
        public static let crashShutdown = Code(rawValue: "57P02")
        /// `57P03`: the server is starting up (or otherwise cannot take connections yet).
        public static let cannotConnectNow = Code(rawValue: "57P03")

        // MARK: - Matching

        /// Whether `code` is `pattern`, or in it when `pattern` is a class: so `case
        /// .integrityConstraintViolation:` takes every constraint failure.
        public static func ~= (pattern: Code, code: Code) -> Bool {
            pattern.isClass ? code.errorClass == pattern : code == pattern
        }

        /// Whether `error` is a ``PostgresError`` whose SQLSTATE `pattern` matches, so
        /// `catch PostgresError.uniqueViolation` works.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            guard let code = (error as? PostgresError)?.code else { return false }
            return pattern ~= code
        }
    }

    /// The SQLSTATE by name; `nil` for failures that never reached the server.
    public var code: Code? { sqlState.map(Code.init(rawValue:)) }

    /// Whether the SQLSTATE is `pattern` (or in it, for a class).
    public func has(_ pattern: Code) -> Bool {
        code.map { pattern ~= $0 } ?? false
    }

    // MARK: - Patterns for `catch`

    /// Matches every connection exception (class `08`).
    public static let connectionException = Code.connectionException
    /// Matches every data exception (class `22`).
    public static let dataException = Code.dataException
    /// Matches every integrity constraint violation (class `23`).
    public static let integrityConstraintViolation = Code.integrityConstraintViolation
    /// Matches every transaction rollback (class `40`).
    public static let transactionRollback = Code.transactionRollback
    /// Matches `23505`.
    public static let uniqueViolation = Code.uniqueViolation
    /// Matches `40001`.
    public static let serializationFailure = Code.serializationFailure
    /// Matches `40P01`.
    public static let deadlockDetected = Code.deadlockDetected
}
