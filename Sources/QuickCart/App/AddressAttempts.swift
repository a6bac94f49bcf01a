import Synchronization

/// A per-address limit kept in this instance's memory: at most ``limit`` attempts per address
/// in ``window`` seconds. An IPv6 address counts by its /64, which one client usually holds
/// whole. Join tries across codes are limited this way (wrong codes count), and so is creating
/// an app's client (every creation counts).
final class AddressAttempts: Sendable {
    let limit: Int
    let window: Int64

    init(limit: Int, window: Int64) {
        self.limit = limit
        self.window = window
    }

    /// Join tries: 20 wrong codes per address per 10 minutes.
    static func joinTries() -> AddressAttempts { AddressAttempts(limit: 20, window: 600) }

    /// Apps' clients: 20 new clients per address per 10 minutes.
    static func clientCreations() -> AddressAttempts { AddressAttempts(limit: 20, window: 600) }

    private struct Entry {
        var count: Int
        var since: Int64
    }

    private let entries = Mutex<[String: Entry]>([:])
    private static let capacity = 100_000

    /// Whether `address` may try a code at `now`.
    func allows(_ address: String, at now: Int64) -> Bool {
        entries.withLock { entries in
            guard let entry = entries[Self.key(address)], now - entry.since < window else { return true }
            return entry.count < limit
        }
    }

    /// Seconds until `address` may try again (at least 1).
    func secondsUntilAllowed(_ address: String, at now: Int64) -> Int64 {
        entries.withLock { entries in
            guard let entry = entries[Self.key(address)] else { return 1 }
            return max(1, entry.since + window - now)
        }
    }

    /// Counts an attempt (for join tries, a wrong one) of `address` at `now`.
    func record(_ address: String, at now: Int64) {
        entries.withLock { entries in
            // Forgetting everything now and then keeps the table bounded; the limit restarts.
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            let key = Self.key(address)
            if var entry = entries[key], now - entry.since < window {
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
