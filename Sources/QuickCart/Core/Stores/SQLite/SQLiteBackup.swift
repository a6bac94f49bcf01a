import FoundationEssentials
import Glibc
import SQLite

/// Copies of a SQLite shop database, made while the shop runs, and restoring one.
enum SQLiteBackup {
    /// Copies the database at `databasePath` to `file` while writers go on: one snapshot
    /// through SQLite's online backup API into a temporary file beside `file`, switched to a
    /// rollback journal so it stands alone, checked with `PRAGMA integrity_check`, synced,
    /// renamed over `file`, then the folder synced.
    ///
    /// Refuses, changing nothing, a `file` whose folder is missing or not writable, one that is
    /// the database or one of the files beside it SQLite and QuickCart use (`-wal`, `-shm`,
    /// `-journal`, `.lock`), and one that exists unless `replacing`. No temporary file is left
    /// behind when it fails.
    /// - Returns: The size of the copy in bytes.
    static func backUp(databasePath: String, to file: String, replacing: Bool) throws -> Int64 {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw SQLiteBackupError("there is no database at \(SQLiteStoreError.absolute(databasePath))")
        }
        try checkDestination(file, databasePath: databasePath, replacing: replacing)
        // Shared, beside the server: only a restore under way (or a file with two names) stops it.
        let lock = try SQLiteUseLock(databasePath: databasePath, for: .sharing)
        defer { withExtendedLifetime(lock) {} }
        let temporary = file + ".partial-\(getpid())"
        defer { removeWithCompanions(temporary) }
        try mapping {
            // The copy holds the cookie-signing secret: no other local user may read it.
            let live = try Database(path: databasePath)
            let copy = try Database(path: temporary, configuration: Database.Configuration(fileMode: 0o600))
            try live.copy(into: copy)
            // A file that stands alone, without a -wal beside it.
            try copy.execute(sql: "PRAGMA journal_mode = DELETE")
            copy.close()
            live.close()
        }
        // Checked before it takes `file`'s place, so a copy that fails leaves `file` as it was.
        try check(temporary, called: "the copy")
        try sync(temporary)
        // Again at the last moment: the copy took a while, and something may have come there.
        try checkDestination(file, databasePath: databasePath, replacing: replacing)
        guard rename(temporary, file) == 0 else {
            throw SQLiteBackupError("cannot rename the copy to \(file): \(String(cString: strerror(errno)))")
        }
        try sync(URL(fileURLWithPath: file).deletingLastPathComponent().path)
        var status = stat()
        guard stat(file, &status) == 0 else { throw SQLiteBackupError("cannot read the size of \(file)") }
        return Int64(status.st_size)
    }

    /// Replaces the database at `databasePath` with the copy in `file`, after checking the
    /// copy (see `checkBackup`), unless the database is in use (see ``SQLiteUseLock``). The
    /// copy goes in through the backup API inside the database's own transaction, so a restore
    /// cut short leaves the database as it was, and its WAL is dealt with by SQLite. Refuses,
    /// changing nothing, a `file` that is the database or a file beside it, by any name.
    /// - Returns: Whether there was no database at `databasePath` before (a new machine's, or a
    ///   mistyped `--db`), and the newest order number of the database replaced and the backup's.
    static func restore(from file: String, to databasePath: String) throws -> RestoreReport {
        guard FileManager.default.fileExists(atPath: file) else {
            throw SQLiteBackupError("there is no backup at \(file)")
        }
        // Copied into itself, the database would be "restored" with nothing done.
        try refuseDatabaseFile(file, databasePath: databasePath, "a restore must come from a backup in another file")
        let isNew = !FileManager.default.fileExists(atPath: databasePath)
        try checkBackup(file)
        let lock = try SQLiteUseLock(databasePath: databasePath, for: .restoring)
        var newest: (replaced: Int64?, backup: Int64?) = (nil, nil)
        try mapping {
            let source = try Database(path: file, configuration: readOnly)
            let target = try Database(path: databasePath, configuration: Database.Configuration(fileMode: 0o600))
            newest = (try? newestOrder(in: target), try newestOrder(in: source))
            try source.copy(into: target)
            let problems = try target.integrityProblems()
            guard problems.isEmpty else {
                throw SQLiteBackupError("the restored database fails its integrity check: \(problems.prefix(3).joined(separator: "; "))")
            }
            target.close()
            source.close()
        }
        withExtendedLifetime(lock) {}
        return RestoreReport(madeNewFile: isNew, newestOrderReplaced: newest.replaced, newestOrderRestored: newest.backup)
    }

    /// The highest order number in `database`, or `nil` without orders (or, in a file that is
    /// not a shop's database yet, without the table).
    private static func newestOrder(in database: Database) throws -> Int64? {
        try database.fetchValue("SELECT max(id) FROM orders", as: Int64.self)
    }

    /// Fails unless `file` is a QuickCart database this build can serve: a SQLite file with the
    /// shop's tables and a schema version it knows (an older one is migrated when the shop
    /// starts), that passes `PRAGMA integrity_check`.
    private static func checkBackup(_ file: String) throws {
        try mapping {
            do {
                let database = try Database(path: file, configuration: readOnly)
                defer { database.close() }
                let version = try SQLiteSchema.migrator.appliedVersion(in: database)
                let tables = Set(try database.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table'") { row in try row.string(0) })
                // Tables every version of the shop has had, under these names, since the first.
                guard version > 0, tables.isSuperset(of: ["products", "settings", "orders", "order_lines"]) else {
                    throw SQLiteBackupError("\(file) is not a QuickCart database: it lacks the shop's tables and schema version")
                }
                let known = SQLiteSchema.migrator.migrationNames.count
                guard version <= known else {
                    throw SQLiteBackupError(
                        "\(file) comes from a newer QuickCart (schema version \(version); this one knows up to \(known)): restore it with that version or a newer one"
                    )
                }
            } catch let error as SQLiteError where error.code == .notADatabase {
                throw SQLiteBackupError("\(file) is not a SQLite database")
            } catch let error as SQLiteError where error.code == .corrupt {
                // A truncated or damaged file fails before its schema can be read.
                throw SQLiteBackupError("\(file) fails its integrity check: \(error.message)")
            }
        }
        try check(file, called: file)
    }

    /// Fails unless `file` passes `PRAGMA integrity_check`; `name` says it in the message.
    private static func check(_ file: String, called name: String) throws {
        try mapping {
            do {
                let database = try Database(path: file, configuration: readOnly)
                defer { database.close() }
                let problems = try database.integrityProblems()
                guard problems.isEmpty else {
                    throw SQLiteBackupError("\(name) fails its integrity check: \(problems.prefix(3).joined(separator: "; "))")
                }
            } catch let error as SQLiteError where error.code == .corrupt {
                // Damage the check cannot step over stops it instead of being listed.
                throw SQLiteBackupError("\(name) fails its integrity check: \(error.message)")
            }
        }
    }

    /// How a backup is opened to be checked or copied from: read-only, so its journal mode
    /// stays as it is (a normal open would switch it to WAL) and nothing in it changes.
    private static var readOnly: Database.Configuration {
        var configuration = Database.Configuration()
        configuration.readOnly = true
        return configuration
    }

    /// Fails when `file` may not take a backup of the database at `databasePath`.
    private static func checkDestination(_ file: String, databasePath: String, replacing: Bool) throws {
        // Said of the folder: SQLite's own error would name the temporary file instead.
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0 else {
            let reason = errno
            throw SQLiteBackupError(reason == ENOENT ? "the folder \(folder) does not exist" : "cannot reach the folder \(folder): \(String(cString: strerror(reason)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw SQLiteBackupError("\(folder) is not a folder") }
        guard access(folder, W_OK) == 0 else {
            throw SQLiteBackupError("cannot write in the folder \(folder): \(String(cString: strerror(errno)))")
        }
        try refuseDatabaseFile(file, databasePath: databasePath, "a backup must go to another file")
        guard lstat(file, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw SQLiteBackupError("\(file) is a folder: name the backup file, such as \(file)/shop.sqlite")
        }
        if !replacing {
            throw SQLiteBackupError("\(file) already exists: name a new file, or add --replace to replace it")
        }
    }

    /// Fails when `file` is the database at `databasePath` or a file beside it, by any name;
    /// `rule` says what to name instead.
    private static func refuseDatabaseFile(_ file: String, databasePath: String, _ rule: String) throws {
        switch databaseSuffix(of: file, databasePath: databasePath) {
        case "": throw SQLiteBackupError("\(file) is the database itself (\(databasePath)): \(rule)")
        case let suffix?: throw SQLiteBackupError("\(file) is the database's \(suffix) file: \(rule)")
        case nil: break
        }
    }

    /// Which of the database's files `path` is, as the suffix of its name: `""` for the
    /// database, `-wal`, `-shm`, `-journal` or `.lock` for the files beside it, `nil` for none.
    /// Told by name once links in the folders are followed (for a file not there yet), or by
    /// device and inode (a symbolic or hard link to one).
    private static func databaseSuffix(of path: String, databasePath: String) -> String? {
        let resolved = resolvedPath(path)
        let resolvedDatabase = resolvedPath(databasePath)
        let identity = fileIdentity(path)
        return ["", "-wal", "-shm", "-journal", ".lock"].first { suffix in
            if let resolved, let resolvedDatabase, resolved == resolvedDatabase + suffix { return true }
            guard let identity, let companion = fileIdentity(databasePath + suffix) else { return false }
            return identity == companion
        }
    }

    /// `path` with its folder's links and `.`/`..` resolved (the last name kept as it is, since
    /// the file may not exist yet); `nil` when the folder cannot be resolved.
    private static func resolvedPath(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard let folder = realpath(url.deletingLastPathComponent().path, nil) else { return nil }
        defer { free(folder) }
        return String(cString: folder) + "/" + url.lastPathComponent
    }

    /// The device and inode of the file at `path`, links followed; `nil` when there is none.
    private static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// `fsync` of a file or folder.
    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SQLiteBackupError("cannot open \(path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SQLiteBackupError("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    private static func removeWithCompanions(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// SQLite's errors, said as storage's.
    private static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw SQLiteBackupError(error.description)
        }
    }
}

/// Why a backup or restore failed, in a sentence for the operator.
struct SQLiteBackupError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
