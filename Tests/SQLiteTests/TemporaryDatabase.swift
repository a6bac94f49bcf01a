import SQLite
@_exported import TestSupport

/// Opens a new database file in its own temporary directory for the duration of `body`.
///
/// - Parameters:
///   - configuration: Options for the connection.
///   - body: Receives the open database and its file path.
/// - Returns: What `body` returns.
@discardableResult
func withTemporaryDatabase<T>(
    configuration: Database.Configuration = Database.Configuration(),
    _ body: (Database, String) throws -> T
) throws -> T {
    try withTemporaryDirectory(prefix: "SQLiteTests") { directory throws in
        let path = directory + "/test.sqlite"
        let db = try Database(path: path, configuration: configuration)
        defer { db.close() }
        return try body(db, path)
    }
}
