/// The connections each client address holds, against the per-address limit: libmicrohttpd's
/// own limit counts every IPv6 address apart, and one client may use any address of its /64.
/// Addresses are counted as bytes, never made into text: this runs for every connection.
///
/// A connection is counted from its start notification to its close; the accept policy asks
/// ``admits(_:)`` before libmicrohttpd takes one. (Connections accepted at the same instant
/// on different threads may each pass the check before either is counted.)
struct ConnectionsPerClient {
    private let limit: Int
    /// Connections held, by ``IPAddress/limitKey`` (`nil` for a peer whose address could not be read).
    private var counts: [IPAddress?: Int] = [:]
    /// The key each counted connection counts under, by connection.
    private var keys: [UInt: IPAddress?] = [:]

    /// - Parameter limit: Connections one address (IPv6: one /64) may hold; `0`: no limit.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a connection from `address` may be taken now.
    func admits(_ address: IPAddress?) -> Bool {
        limit == 0 || counts[address?.limitKey, default: 0] < limit
    }

    mutating func started(_ connection: OpaquePointer, address: IPAddress?) {
        guard limit > 0 else { return }
        let key = address?.limitKey
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
