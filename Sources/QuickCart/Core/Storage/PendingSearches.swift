import Synchronization

/// Recent searches of sessions that are not stored yet, kept in this process's memory.
///
/// Searching is reading: it never stores a session, so a crawler following every category link
/// costs no storage. A shopper who searches before changing anything still sees their recent
/// searches: they wait here, and move into storage once the session is stored (its first
/// change). Only sessions that came back with a cookie the shop issued are remembered, so a
/// request without one costs nothing, and at most ``capacity`` sessions are kept: the ones that
/// searched least recently are forgotten first. With many instances each keeps its own, so a
/// search made through one instance shows on another only once the session is stored.
final class PendingSearches: Sendable {
    private struct Entry {
        /// Newest first, at most ``SearchHistory/limit``.
        var queries: [String]
        /// When the session last searched, in this store's own count.
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most sessions remembered at once.
    let capacity: Int

    init(capacity: Int = 10_000) {
        precondition(capacity > 0, "PendingSearches needs room for one session")
        self.capacity = capacity
    }

    /// Remembers `query` as the newest search of the session stored (later) under `key`: the
    /// same words in another case replace the older spelling, and only the newest
    /// ``SearchHistory/limit`` stay, as in storage.
    func record(_ query: String, for key: String) {
        let lowered = query.lowercased()
        state.withLock { state in
            state.clock += 1
            var queries = state.entries[key]?.queries ?? []
            queries.removeAll { $0.lowercased() == lowered }
            queries.insert(query, at: 0)
            state.entries[key] = Entry(queries: Array(queries.prefix(SearchHistory.limit)), lastUse: state.clock)
            if state.entries.count > capacity { Self.forgetOldestHalf(&state.entries) }
        }
    }

    /// The session's recent searches, newest first.
    func recent(for key: String) -> [String] {
        state.withLock { $0.entries[key]?.queries ?? [] }
    }

    /// The session's recent searches, newest first, forgotten here: for moving them into storage.
    func take(for key: String) -> [String] {
        state.withLock { $0.entries.removeValue(forKey: key)?.queries ?? [] }
    }

    /// Keeps the more recently used half: one sort per `capacity / 2` new sessions, rather than
    /// ordering every use.
    private static func forgetOldestHalf(_ entries: inout [String: Entry]) {
        let kept = entries.sorted { $0.value.lastUse > $1.value.lastUse }.prefix(entries.count / 2)
        entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}
