import Glibc

/// Says "this database file is in use": every QuickCart process that opens the SQLite file
/// (the server, an import, a backup) holds a shared `flock` on `FILE.lock` beside it for as
/// long as it has it open, and `quickcart restore` takes it exclusively, without waiting, so a
/// restore never replaces a database that someone is using, and nobody opens one being restored.
/// A server also holds a write lock of its own on the same file, so a second server is refused.
///
/// The lock file is named after the database's real path (links followed), so every name of
/// one file (a symbolic link, `./x`, `../dir/x`, relative or absolute) finds the same lock.
/// A hard link has no name that is more real than another, so a database file with more than
/// one (`st_nlink` above 1) is refused instead: its names would find different locks, and
/// SQLite would give each name a `-wal` of its own, which is how a second name writes an old
/// snapshot back over the live data (SQLite's own "How To Corrupt" lists multiple links).
///
/// A file of its own, not the database: closing any descriptor of the database file would
/// drop the POSIX locks SQLite holds on it in this process.
final class SQLiteUseLock: Sendable {
    /// What the lock is taken for.
    enum Use {
        /// Reading or changing the database beside others (an import, an export, a backup).
        case sharing
        /// Serving the shop: beside the operator's commands, never beside another server.
        case serving
        /// Replacing the database: alone.
        case restoring
    }

    private let descriptor: Int32

    /// The lock file of the database at `databasePath`.
    static func path(for databasePath: String) -> String { realPath(databasePath) + ".lock" }

    /// Takes the lock for `use`.
    /// - Throws: ``SQLiteUseLock/Busy`` when it is held in a way `use` cannot share (a restore
    ///   under way, the database in use, another server); ``SQLiteStoreError/hardLinked(path:links:)``
    ///   for a file with more than one name; ``StorageError/unavailable(reason:)`` when the
    ///   lock file cannot be made.
    init(databasePath: String, for use: Use) throws {
        var status = stat()
        if stat(databasePath, &status) == 0, status.st_nlink > 1 {
            throw SQLiteStoreError.hardLinked(path: SQLiteStoreError.absolute(databasePath), links: Int(status.st_nlink))
        }
        let path = Self.path(for: databasePath)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError.unavailable(reason: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        do {
            try Self.lock(descriptor, path: path, use: use)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    private static func lock(_ descriptor: Int32, path: String, use: Use) throws {
        while flock(descriptor, (use == .restoring ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { throw Busy(holder: use == .restoring ? .user : .restore) }
            throw StorageError.unavailable(reason: "cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        guard use == .serving else { return }
        // The server's own lock is an open file description lock (F_OFD_SETLK) on the same
        // file: it is independent of the flock above (on the local file systems SQLite's WAL
        // needs), and, unlike a classic POSIX lock, it belongs to this descriptor, so two
        // servers in one process conflict too, and closing another descriptor of the file
        // keeps it. Glibc's module leaves the constant out (it needs _GNU_SOURCE): 37 on Linux.
        let setOpenFileDescriptionLock: Int32 = 37
        var region = flock()
        region.l_type = Int16(F_WRLCK)
        region.l_whence = Int16(SEEK_SET)
        while fcntl(descriptor, setOpenFileDescriptionLock, &region) != 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EACCES { throw Busy(holder: .server) }
            throw StorageError.unavailable(reason: "cannot lock \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// `path` with every symbolic link followed and `.`/`..` resolved, from the root. The file
    /// itself may not exist yet (a server creating it, a restore into a new file), and a link
    /// may point at a file not there yet, which opening creates: then the link is read by hand
    /// and its folder resolved. A path whose folder cannot be resolved stays as it was given,
    /// from the root; opening it fails anyway.
    static func realPath(_ path: String) -> String {
        var path = SQLiteStoreError.absolute(path)
        // As many links as the kernel follows (MAXSYMLINKS); past them, opening fails too.
        for _ in 0..<40 {
            if let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
            let slash = path.lastIndex(of: "/") ?? path.startIndex
            let folder = path[..<slash].isEmpty ? "/" : String(path[..<slash])
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, Int(PATH_MAX))
            guard count > 0 else {
                guard let resolvedFolder = realpath(folder, nil) else { return path }
                defer { free(resolvedFolder) }
                let name = path[path.index(after: slash)...]
                return (String(cString: resolvedFolder) == "/" ? "" : String(cString: resolvedFolder)) + "/" + name
            }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = target.hasPrefix("/") ? target : (folder == "/" ? "" : folder) + "/" + target
        }
        return path
    }

    /// The lock is held in a way the use asked for cannot share.
    struct Busy: Error, CustomStringConvertible {
        /// Who holds it.
        enum Holder { case user, restore, server }

        let holder: Holder

        var description: String {
            switch holder {
            case .user: "the database is in use (a running QuickCart holds its lock); stop the server and any import first"
            case .restore: "the database is being restored; try again once the restore has finished"
            case .server: "another QuickCart server is serving this database (it holds its lock); a SQLite database is served by one process at a time"
            }
        }
    }
}
