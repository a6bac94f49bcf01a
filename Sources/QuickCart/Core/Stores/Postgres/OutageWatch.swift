import Synchronization

/// Whether the database was last seen out of reach: set by a call that found it so, cleared by
/// the next call that reached it. A request that would ask the database nothing (a new
/// visitor's page) asks it once while this is set (or while the badge listener has lost its
/// connection, ``PostgresStorage/confirmReachable()``), so that it answers 503 as every other
/// request does, not as a shop that seems up.
final class OutageWatch: Sendable {
    private let suspected = Atomic<Bool>(false)

    /// Whether the last call found the database out of reach.
    var isSuspected: Bool { suspected.load(ordering: .relaxed) }

    /// Runs `body`, a call to the database, noting whether it reached it.
    func watching<T>(_ body: () throws -> T) throws -> T {
        do {
            let value = try body()
            // A load first: while all is well, the flag's cache line stays shared between threads.
            if suspected.load(ordering: .relaxed) { suspected.store(false, ordering: .relaxed) }
            return value
        } catch let error as StorageError {
            if case .unavailable = error { suspected.store(true, ordering: .relaxed) }
            throw error
        }
    }
}
