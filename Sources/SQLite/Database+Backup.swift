import CSQLite
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Copies this whole database into `destination` with SQLite's online backup API, in one
    /// step: the copy is one consistent snapshot, taken in a read transaction, so writers on
    /// other connections go on meanwhile (in WAL mode they never wait for it). The destination's
    /// old content is replaced inside its own transaction: a copy cut short leaves it as it was.
    ///
    /// ```swift
    /// let copy = try Database(path: "backup.sqlite")
    /// try live.copy(into: copy)
    /// ```
    /// - Throws: ``SQLiteError`` when the copy cannot start or finish (a lock held past the
    ///   busy timeout, a full disk, different page sizes with a WAL destination).
    public func copy(into destination: Database) throws {
        let source = try connection.openHandle()
        let target = try destination.connection.openHandle()
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
            throw SQLiteError(resultCode: sqlite3_errcode(target), handle: target, sql: nil)
        }
        let deadline = ContinuousClock.now + configuration.busyTimeout
        var step = sqlite3_backup_step(backup, -1)
        // A lock another connection holds for a moment (SQLite calls no busy handler here).
        while step == SQLITE_BUSY || step == SQLITE_LOCKED, ContinuousClock.now < deadline {
            usleep(5_000)
            step = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE else { throw SQLiteError(resultCode: step, handle: target, sql: nil) }
        try Connection.check(finished, handle: target, sql: nil)
    }

    /// `PRAGMA integrity_check`'s findings: empty when the database is sound.
    public func integrityProblems() throws -> [String] {
        let lines = try fetchAll("PRAGMA integrity_check") { row in try row.string(0) }
        return lines == ["ok"] ? [] : lines
    }
}
