import Foundation
import SQLite
import Synchronization

/// A fresh directory under the system temporary directory, removed when `body` returns,
/// so tests that run in parallel never share a database file.
///
/// - Parameter body: Receives the directory path.
/// - Returns: What `body` returns.
///
/// A closure whose only `try` sits inside `#expect` must say `throws in` explicitly:
/// effect inference does not look inside macro expansions.
@discardableResult
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SQLiteTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory.path)
}

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
    try withTemporaryDirectory { directory throws in
        let path = directory + "/test.sqlite"
        let db = try Database(path: path, configuration: configuration)
        defer { db.close() }
        return try body(db, path)
    }
}

/// An error thrown by test code, distinct from anything the library throws.
struct TestFailure: Error, Equatable {
    let reason: String
}

/// Collects values from several threads or `@Sendable` closures.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withLock { $0 }
    }
}
