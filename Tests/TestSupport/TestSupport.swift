import Foundation
import Synchronization

/// A folder of its own under the system's temporary directory, removed with everything in it
/// when the last reference goes, so tests that run in parallel never share a file.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// - Parameter prefix: How the folder's name starts, to tell whose it is in `/tmp`.
    public init(prefix: String = "QuickCartTests") throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A fresh directory under the system temporary directory, removed when `body` returns.
///
/// A closure whose only `try` sits inside `#expect` must say `throws in` explicitly:
/// effect inference does not look inside macro expansions.
@discardableResult
public func withTemporaryDirectory<T>(prefix: String = "QuickCartTests", _ body: (String) throws -> T) throws -> T {
    let directory = try TemporaryDirectory(prefix: prefix)
    return try withExtendedLifetime(directory) { try body(directory.path) }
}

/// An error thrown by test code, distinct from anything the code under test throws.
public struct TestFailure: Error, Equatable {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// Collects values from several threads or `@Sendable` closures.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    public init() {}

    public func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    public var values: [Value] {
        storage.withLock { $0 }
    }

    /// Waits until `condition` holds for the recorded values, checking every few ms.
    ///
    /// - Returns: Whether it held before the timeout.
    @discardableResult
    public func wait(timeout: Duration = .seconds(5), until condition: ([Value]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(values) {
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
        return true
    }
}
