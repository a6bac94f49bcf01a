import Glibc

/// Failures of the SQLite stores that are not SQLite's own.
enum SQLiteStoreError: Error, CustomStringConvertible {
    /// Opened as an existing database, and there is no file at the path.
    case noDatabase(path: String)

    var description: String {
        switch self {
        case .noDatabase(let path):
            "there is no database at \(path): serving the shop (quickcart --db \(path)) creates it, or name an existing one with --db"
        }
    }

    /// `path` from the root, for messages: a relative one is read from the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }
}
