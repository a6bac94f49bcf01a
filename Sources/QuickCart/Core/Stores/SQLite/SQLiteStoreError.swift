import Glibc

/// Failures of the SQLite stores that are not SQLite's own.
enum SQLiteStoreError: Error, CustomStringConvertible {
    /// Opened as an existing database, and there is no file at the path.
    case noDatabase(path: String)
    /// The database file has more than one name (hard links), each of which would find a lock
    /// and a `-wal` of its own (see ``SQLiteUseLock``).
    case hardLinked(path: String, links: Int)

    var description: String {
        switch self {
        case .noDatabase(let path):
            "there is no database at \(path): serving the shop (quickcart --db \(path)) creates it, or name an existing one with --db"
        case .hardLinked(let path, let links):
            "\(path) is one file with \(links) names (hard links), and QuickCart uses a database by one name only: "
                + "remove the other names (find / -xdev -samefile \(path) lists them), or use a copy"
        }
    }

    /// `path` from the root, for messages: a relative one is read from the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }
}
