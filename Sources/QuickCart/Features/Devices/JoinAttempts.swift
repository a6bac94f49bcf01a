import Synchronization

/// The per-address limit on join tries across codes, kept in this instance's memory: at most
/// ``limit`` wrong tries (a wrong code posted, or a join page opened with one) per address in
/// ``window`` seconds. An IPv6 address counts by its /64, which one client usually holds whole.
final class JoinAttempts: Sendable {
    static let limit = 20
    static let window: Int64 = 600

    private struct Entry {
        var count: Int
        var since: Int64
    }

    private let entries = Mutex<[String: Entry]>([:])
    private static let capacity = 100_000

    /// Whether `address` may try a code at `now`.
    func allows(_ address: String, at now: Int64) -> Bool {
        entries.withLock { entries in
            guard let entry = entries[Self.key(address)], now - entry.since < Self.window else { return true }
            return entry.count < Self.limit
        }
    }

    /// Counts a wrong try of `address` at `now`.
    func recordWrong(_ address: String, at now: Int64) {
        entries.withLock { entries in
            // Forgetting everything now and then keeps the table bounded; the limit restarts.
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            let key = Self.key(address)
            if var entry = entries[key], now - entry.since < Self.window {
                entry.count += 1
                entries[key] = entry
            } else {
                entries[key] = Entry(count: 1, since: now)
            }
        }
    }

    /// The address, or its first four groups (the /64) for IPv6.
    static func key(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var groups = address.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if let gap = groups.firstIndex(of: ""), address.contains("::") {
            groups.remove(at: gap)
            while groups.count < 8 { groups.insert("0", at: gap) }
        }
        return groups.prefix(4).joined(separator: ":") + "::/64"
    }
}
