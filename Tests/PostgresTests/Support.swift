import Foundation
import Postgres
import PostgresTesting
@_exported import TestSupport
import Synchronization

/// A new, empty database on the shared test server.
///
/// - Returns: Its URL.
func makeTestDatabase() throws -> String {
    try TestPostgresServer.shared().makeDatabase()
}

/// Opens a connection to a new, empty database for the duration of `body`.
///
/// - Parameter body: Receives the open connection and the database URL.
/// - Returns: What `body` returns.
@discardableResult
func withTestConnection<T>(_ body: (PostgresConnection, String) throws -> T) throws -> T {
    let url = try makeTestDatabase()
    let connection = try PostgresConnection(connectionString: url)
    defer { connection.close() }
    return try body(connection, url)
}

/// Runs `body(index)` on `count` threads at once and waits for all of them.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// A counter shared by threads and `@Sendable` closures.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    func add(_ amount: Int = 1) {
        storage.add(amount, ordering: .relaxed)
    }

    var value: Int {
        storage.load(ordering: .relaxed)
    }
}
