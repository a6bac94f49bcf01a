import CSQLite

/// An error reported by SQLite, or by this module when the API is misused.
///
/// It carries the primary and extended result codes, SQLite's own message and the
/// SQL text that failed. It never carries bound argument values: those can be
/// passwords, tokens or personal data, and errors end up in logs.
///
/// Match a kind of failure with the static code members, which work as `catch` patterns:
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO users (email) VALUES (?)", [email])
/// } catch SQLiteError.constraintUnique {
///     // The e-mail address is taken.
/// } catch let error as SQLiteError where error.isBusy {
///     // Another process held the write lock longer than the busy timeout.
/// }
/// ```
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The primary result code, such as ``Code/constraint`` or ``Code/busy``.
    public let code: Code

    /// The extended result code, such as ``Code/constraintUnique``; equal to ``code``
    /// when SQLite gave no detail.
    public let extendedCode: Code

    /// SQLite's explanation (`sqlite3_errmsg`), or this module's for misuse.
    public let message: String

    /// The SQL text being prepared or run, if any. Bound values are never included.
    public let sql: String?

    /// Creates an error from a raw result code.
    ///
    /// - Parameters:
    ///   - resultCode: A primary or extended SQLite result code; the primary code is
    ///     its low byte.
    ///   - message: A human-readable explanation.
    ///   - sql: The SQL text involved, if any.
    public init(resultCode: Int32, message: String, sql: String? = nil) {
        self.code = Code(rawValue: resultCode & 0xFF)
        self.extendedCode = Code(rawValue: resultCode)
        self.message = message
        self.sql = sql
    }

    /// A one-line description: code name and number, message, and the SQL text.
    public var description: String {
        var text = "\(extendedCode) (\(extendedCode.rawValue)): \(message)"
        if let sql {
            text += " — SQL: \(sql)"
        }
        return text
    }

    // MARK: - Classification

    /// Whether a constraint failed: UNIQUE, PRIMARY KEY, FOREIGN KEY, NOT NULL or CHECK.
    public var isConstraintViolation: Bool { code == .constraint }

    /// Whether the database was locked by another connection (`SQLITE_BUSY`, SQLite's
    /// "database is locked") or a table was locked within a shared cache (`SQLITE_LOCKED`).
    ///
    /// Both mean "try again later"; the busy timeout already waited before this was thrown.
    public var isBusy: Bool { code == .busy || code == .locked }

    /// Whether a write was refused because the database or file is read-only.
    public var isReadOnly: Bool { code == .readOnly }

    /// Whether a write failed because the disk (or the page limit) is full (`SQLITE_FULL`).
    public var isFull: Bool { code == .full }

    // MARK: - Patterns for `catch`

    /// `SQLITE_ERROR`: generic error, typically an SQL syntax error or missing table.
    public static let error = Code.error
    /// `SQLITE_ABORT`: an operation was aborted, e.g. by a ROLLBACK.
    public static let abort = Code.abort
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    public static let busy = Code.busy
    /// `SQLITE_LOCKED`: a table is locked by the same connection or a shared cache.
    public static let locked = Code.locked
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    public static let readOnly = Code.readOnly
    /// `SQLITE_INTERRUPT`: the operation was interrupted.
    public static let interrupt = Code.interrupt
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = Code.ioError
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = Code.corrupt
    /// `SQLITE_FULL`: the disk is full.
    public static let full = Code.full
    /// `SQLITE_CANTOPEN`: the database file could not be opened.
    public static let cantOpen = Code.cantOpen
    /// `SQLITE_TOOBIG`: a string or blob exceeds SQLite's size limit.
    public static let tooBig = Code.tooBig
    /// `SQLITE_CONSTRAINT`: any constraint violation.
    public static let constraint = Code.constraint
    /// `SQLITE_MISMATCH`: a data type mismatch, e.g. a non-integer rowid.
    public static let mismatch = Code.mismatch
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    public static let misuse = Code.misuse
    /// `SQLITE_RANGE`: a parameter index is out of range.
    public static let range = Code.range
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = Code.notADatabase
    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint failed.
    public static let constraintUnique = Code.constraintUnique
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a PRIMARY KEY constraint failed.
    public static let constraintPrimaryKey = Code.constraintPrimaryKey
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a FOREIGN KEY constraint failed.
    public static let constraintForeignKey = Code.constraintForeignKey
    /// `SQLITE_CONSTRAINT_NOTNULL`: a NOT NULL constraint failed.
    public static let constraintNotNull = Code.constraintNotNull
    /// `SQLITE_CONSTRAINT_CHECK`: a CHECK constraint failed.
    public static let constraintCheck = Code.constraintCheck
    /// `SQLITE_BUSY_SNAPSHOT`: a deferred transaction could not be upgraded to a write.
    public static let busySnapshot = Code.busySnapshot
}

// MARK: - Construction from the C API

extension SQLiteError {
    /// Builds an error from a failed call on `handle`, reading SQLite's message while it
    /// still describes this failure.
    init(resultCode: Int32, handle: OpaquePointer?, sql: String?) {
        let message: String
        if let handle, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(resultCode))
        }
        self.init(resultCode: resultCode, message: message, sql: sql)
    }

    /// An error raised by this module rather than by SQLite, reported as `SQLITE_MISUSE`.
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(resultCode: SQLITE_MISUSE, message: message, sql: sql)
    }
}
