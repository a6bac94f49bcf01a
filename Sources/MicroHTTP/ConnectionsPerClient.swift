/// The connections each client address holds, against the per-address limit: libmicrohttpd's
/// own limit counts every IPv6 address apart, and one client may use any address of its /64.
///
/// A connection is counted from its start notification to its close; the accept policy asks
/// ``admits(_:)`` before libmicrohttpd takes one. (Connections accepted at the same instant
/// on different threads may each pass the check before either is counted.)
struct ConnectionsPerClient {
    private let limit: Int
    private var counts: [String: Int] = [:]
    /// The key each counted connection counts under, by connection.
    private var keys: [UInt: String] = [:]

    /// - Parameter limit: Connections one address (IPv6: one /64) may hold; `0`: no limit.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a connection from `address` may be taken now.
    func admits(_ address: String) -> Bool {
        limit == 0 || counts[IPAddress.limitKey(of: address), default: 0] < limit
    }

    mutating func started(_ connection: OpaquePointer, address: String) {
        guard limit > 0 else { return }
        let key = IPAddress.limitKey(of: address)
        counts[key, default: 0] += 1
        keys[Self.id(connection)] = key
    }

    mutating func closed(_ connection: OpaquePointer) {
        guard let key = keys.removeValue(forKey: Self.id(connection)) else { return }
        let held = counts[key, default: 1] - 1
        counts[key] = held > 0 ? held : nil
    }

    private static func id(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
