import CSQLite

extension SQLiteError {
    /// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended
    /// (`SQLITE_CONSTRAINT_UNIQUE`).
    ///
    /// Compare with the static members, or use them as `catch` patterns through
    /// ``SQLiteError``:
    ///
    /// ```swift
    /// switch error.extendedCode {
    /// case .constraintUnique: ...
    /// case .constraintForeignKey: ...
    /// default: ...
    /// }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric code as SQLite defines it.
        public let rawValue: Int32

        /// Wraps a numeric SQLite result code.
        ///
        /// - Parameter rawValue: An SQLite result code.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// The primary code this code belongs to (its low byte).
        public var primary: Code { Code(rawValue: rawValue & 0xFF) }

        /// The C name, such as `SQLITE_CONSTRAINT_UNIQUE`, or `SQLITE_<number>` when unknown.
        public var description: String {
            Self.names[self] ?? (primary == self ? "SQLITE_\(rawValue)" : "\(primary)_\(rawValue)")
        }

        // MARK: - Primary codes

        /// `SQLITE_ERROR`: generic error, typically an SQL syntax error or missing table.
        public static let error = Code(rawValue: SQLITE_ERROR)
        /// `SQLITE_INTERNAL`: an internal logic error in SQLite.
        public static let `internal` = Code(rawValue: SQLITE_INTERNAL)
        /// `SQLITE_PERM`: access permission denied.
        public static let permission = Code(rawValue: SQLITE_PERM)
        /// `SQLITE_ABORT`: an operation was aborted, e.g. by a ROLLBACK.
        public static let abort = Code(rawValue: SQLITE_ABORT)
        /// `SQLITE_BUSY`: the database file is locked by another connection.
        public static let busy = Code(rawValue: SQLITE_BUSY)
        /// `SQLITE_LOCKED`: a table is locked by the same connection or a shared cache.
        public static let locked = Code(rawValue: SQLITE_LOCKED)
        /// `SQLITE_NOMEM`: a memory allocation failed.
        public static let noMemory = Code(rawValue: SQLITE_NOMEM)
        /// `SQLITE_READONLY`: an attempt to write a read-only database.
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// `SQLITE_INTERRUPT`: the operation was interrupted.
        public static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        public static let ioError = Code(rawValue: SQLITE_IOERR)
        /// `SQLITE_CORRUPT`: the database file is malformed.
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_FULL`: the disk is full.
        public static let full = Code(rawValue: SQLITE_FULL)
        /// `SQLITE_CANTOPEN`: the database file could not be opened.
        public static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_PROTOCOL`: a locking protocol error.
        public static let `protocol` = Code(rawValue: SQLITE_PROTOCOL)
        /// `SQLITE_SCHEMA`: the schema changed while a statement was being prepared.
        public static let schema = Code(rawValue: SQLITE_SCHEMA)
        /// `SQLITE_TOOBIG`: a string or blob exceeds SQLite's size limit.
        public static let tooBig = Code(rawValue: SQLITE_TOOBIG)
        /// `SQLITE_CONSTRAINT`: any constraint violation.
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_MISMATCH`: a data type mismatch.
        public static let mismatch = Code(rawValue: SQLITE_MISMATCH)
        /// `SQLITE_MISUSE`: the library was used incorrectly.
        public static let misuse = Code(rawValue: SQLITE_MISUSE)
        /// `SQLITE_RANGE`: a parameter index is out of range.
        public static let range = Code(rawValue: SQLITE_RANGE)
        /// `SQLITE_NOTADB`: the file is not a database.
        public static let notADatabase = Code(rawValue: SQLITE_NOTADB)

        // MARK: - Extended codes callers commonly branch on

        // Swift cannot import the C macros for extended codes (they are expressions), so
        // they are spelled out as sqlite3.h defines them: primary | (detail << 8).

        /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint failed.
        public static let constraintUnique = Code(rawValue: SQLITE_CONSTRAINT | (8 << 8))
        /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a PRIMARY KEY constraint failed.
        public static let constraintPrimaryKey = Code(rawValue: SQLITE_CONSTRAINT | (6 << 8))
        /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a FOREIGN KEY constraint failed.
        public static let constraintForeignKey = Code(rawValue: SQLITE_CONSTRAINT | (3 << 8))
        /// `SQLITE_CONSTRAINT_NOTNULL`: a NOT NULL constraint failed.
        public static let constraintNotNull = Code(rawValue: SQLITE_CONSTRAINT | (5 << 8))
        /// `SQLITE_CONSTRAINT_CHECK`: a CHECK constraint failed.
        public static let constraintCheck = Code(rawValue: SQLITE_CONSTRAINT | (1 << 8))
        /// `SQLITE_BUSY_SNAPSHOT`: a deferred transaction could not be upgraded to a write
        /// because another connection committed since its snapshot began.
        public static let busySnapshot = Code(rawValue: SQLITE_BUSY | (2 << 8))
        /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
        public static let readOnlyDatabaseMoved = Code(rawValue: SQLITE_READONLY | (4 << 8))

        // MARK: - Matching errors

        /// Matches an error against a result code, so `catch SQLiteError.constraint` works.
        ///
        /// A primary code pattern (``constraint``) matches every extended code under it;
        /// an extended pattern (``constraintUnique``) matches only itself.
        ///
        /// - Parameters:
        ///   - pattern: The code to look for.
        ///   - error: The thrown error.
        /// - Returns: `true` if `error` is an ``SQLiteError`` with that primary or extended code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            guard let error = error as? SQLiteError else { return false }
            return error.code == pattern || error.extendedCode == pattern
        }

        // MARK: - Names

        private static let names: [Code: String] = [
            .error: "SQLITE_ERROR", .internal: "SQLITE_INTERNAL", .permission: "SQLITE_PERM",
            .abort: "SQLITE_ABORT", .busy: "SQLITE_BUSY", .locked: "SQLITE_LOCKED",
            .noMemory: "SQLITE_NOMEM", .readOnly: "SQLITE_READONLY", .interrupt: "SQLITE_INTERRUPT",
            .ioError: "SQLITE_IOERR", .corrupt: "SQLITE_CORRUPT", .full: "SQLITE_FULL",
            .cantOpen: "SQLITE_CANTOPEN", .protocol: "SQLITE_PROTOCOL", .schema: "SQLITE_SCHEMA",
            .tooBig: "SQLITE_TOOBIG", .constraint: "SQLITE_CONSTRAINT", .mismatch: "SQLITE_MISMATCH",
            .misuse: "SQLITE_MISUSE", .range: "SQLITE_RANGE", .notADatabase: "SQLITE_NOTADB",
            .constraintUnique: "SQLITE_CONSTRAINT_UNIQUE",
            .constraintPrimaryKey: "SQLITE_CONSTRAINT_PRIMARYKEY",
            .constraintForeignKey: "SQLITE_CONSTRAINT_FOREIGNKEY",
            .constraintNotNull: "SQLITE_CONSTRAINT_NOTNULL",
            .constraintCheck: "SQLITE_CONSTRAINT_CHECK",
            .busySnapshot: "SQLITE_BUSY_SNAPSHOT",
            .readOnlyDatabaseMoved: "SQLITE_READONLY_DBMOVED",
        ]
    }
}
