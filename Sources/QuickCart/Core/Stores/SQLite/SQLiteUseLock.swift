import Glibc

/// Says "this database file is in use": every QuickCart process that opens the SQLite file
/// (the server, an import) holds a shared `flock` on `FILE.lock` beside it for as long as it
/// has it open, and `quickcart restore` takes it exclusively, without waiting, so a restore
/// never replaces a database that someone is using, and nobody opens one being restored.
///
/// A file of its own, not the database: closing any descriptor of the database file would
/// drop the POSIX locks SQLite holds on it in this process.
final class SQLiteUseLock: Sendable {
    private let descriptor: Int32

    /// The lock file of the database at `databasePath`.
    static func path(for databasePath: String) -> String { databasePath + ".lock" }

    /// Takes the lock, shared (`exclusive: false`) or alone.
    /// - Throws: ``SQLiteUseLock/Busy`` when it is held the other way (a restore under way, or
    ///   the database in use); ``StorageError/unavailable(reason:)`` when the file cannot be made.
    init(databasePath: String, exclusive: Bool) throws {
        let path = Self.path(for: databasePath)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError.unavailable(reason: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK { throw Busy(exclusive: exclusive) }
            throw StorageError.unavailable(reason: "cannot lock \(path): \(String(cString: strerror(reason)))")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The lock is held the other way.
    struct Busy: Error, CustomStringConvertible {
        let exclusive: Bool

        var description: String {
            exclusive
                ? "the database is in use (a running QuickCart holds its lock); stop the server and any import first"
                : "the database is being restored; try again once the restore has finished"
        }
    }
}
