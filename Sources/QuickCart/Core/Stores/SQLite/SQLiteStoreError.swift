import Glibc

/// Failures of the SQLite stores that are not SQLite's own.
enum SQLiteStoreError: Error, CustomStringConvertible {
    /// Opened as an existing database, and there is no file at the path.
    case noDatabase(path: String)
    /// The database file has more than one name (hard links), each of which would find a lock
    /// and a `-wal` of its own (see ``SQLiteUseLock``).
    case hardLinked(path: String, links: Int)
    /// The file is not a SQLite database, or is damaged; `reason` is SQLite's word for it.
    case damaged(path: String, reason: String)
    /// This process may not write the file.
    case readOnly(path: String)
    /// A newer QuickCart wrote the file: its schema version is above every one this build knows.
    case newerSchema(path: String, version: Int, knownVersion: Int)

    var description: String {
        switch self {
        case .noDatabase(let path):
            "there is no database at \(path): serving the shop (quickcart --db \(path)) creates it, or name an existing one with --db"
        case .hardLinked(let path, let links):
            "\(path) is one file with \(links) names (hard links), and QuickCart uses a database by one name only: "
                + "remove the other names (find / -xdev -samefile \(path) lists them), or use a copy"
        case .damaged(let path, let reason):
            "\(path) is damaged or is not a SQLite database (\(reason)): move it aside with its -wal and -shm files, "
                + "then restore a backup into its place (quickcart restore)"
        case .readOnly(let path):
            "cannot write the database \(path) as the user \(Self.userName): make the file writable by the user QuickCart runs as, "
                + "or run QuickCart as the file's owner"
        case .newerSchema(let path, let version, let knownVersion):
            "\(path) comes from a newer QuickCart (schema version \(version); this one knows up to \(knownVersion)): "
                + "serve it with that version or a newer one, or restore a backup made before the upgrade"
        }
    }

    /// The name of the user this process runs as, or its number when it has none.
    private static var userName: String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "with uid \(uid)" }
        return String(cString: name)
    }

    /// `path` from the root, for messages: a relative one is read from the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }
}
