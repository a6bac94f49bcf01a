import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// An IP address as 16 bytes (IPv4 as an IPv4-mapped IPv6 address), equal however it was
/// written: `::ffff:192.0.2.7` and `192.0.2.7` are one address.
struct IPAddress: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    /// Parses an IPv4 or IPv6 literal, bracketed or not, with or without a port
    /// (`192.0.2.7`, `192.0.2.7:443`, `2001:db8::1`, `[2001:db8::1]:443`); spaces around are ignored.
    init?(_ text: some StringProtocol) {
        var literal = Substring(text).drop { $0 == " " || $0 == "\t" }
        while let last = literal.last, last == " " || last == "\t" { literal.removeLast() }
        if literal.first == "[" {
            guard let close = literal.firstIndex(of: "]") else { return nil }
            literal = literal[literal.index(after: literal.startIndex)..<close]
        } else if literal.contains("."), let colon = literal.firstIndex(of: ":"), literal.lastIndex(of: ":") == colon {
            literal = literal[..<colon]
        }
        guard !literal.isEmpty, literal.utf8.count < 64 else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, String(literal), &v4) == 1 {
            bytes[10] = 0xFF
            bytes[11] = 0xFF
            withUnsafeBytes(of: v4) { bytes.replaceSubrange(12..<16, with: $0) }
        } else if inet_pton(AF_INET6, String(literal), &v6) == 1 {
            withUnsafeBytes(of: v6) { bytes.replaceSubrange(0..<16, with: $0) }
        } else {
            return nil
        }
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The address in a `sockaddr` libmicrohttpd gave (the accept policy's), without making
    /// text of it; `nil` when it is neither IPv4 nor IPv6.
    init?(socketAddress address: UnsafePointer<sockaddr>?) {
        self.init(reading: { cmhd_address_bytes(address, $0) })
    }

    /// The peer's address of `connection`; `nil` when it cannot be read.
    init?(clientOf connection: OpaquePointer) {
        self.init(reading: { cmhd_client_address_bytes(connection, $0) })
    }

    /// An address `read` writes as 16 bytes, returning 0 when it could.
    private init?(reading read: (UnsafeMutablePointer<UInt8>) -> Int32) {
        var bytes: (UInt64, UInt64) = (0, 0)
        let status = withUnsafeMutableBytes(of: &bytes) { read($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        guard status == 0 else { return nil }
        // The bytes are in network order: the first eight are the high half.
        self.init(high: UInt64(bigEndian: bytes.0), low: UInt64(bigEndian: bytes.1))
    }

    private var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// What the per-address limits count this address as: an IPv4 address whole, an IPv6
    /// address by its /64, since one home or one phone gets a /64 and picks any address in it
    /// at will. (The /64 of an IPv6 address has its low half zero, which no IPv4 address has.)
    var limitKey: IPAddress { isIPv4 ? self : IPAddress(high: high, low: 0) }

    /// ``limitKey`` of `text` (an address as written), as text: `192.0.2.7`,
    /// `2001:db8:1:2::/64`; anything that is not an address as it is.
    static func limitKey(of text: String) -> String {
        guard let address = IPAddress(text) else { return text }
        return address.isIPv4 ? address.text : address.limitKey.text + "/64"
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The address in its usual written form: dotted for IPv4 (mapped ones included).
    var text: String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let written = bytes.withUnsafeBytes { raw in
                inet_ntop(isIPv4 ? AF_INET : AF_INET6, raw.baseAddress! + (isIPv4 ? 12 : 0), buffer.baseAddress!, socklen_t(buffer.count))
            }
            return written == nil ? "" : String(cString: buffer.baseAddress!)
        }
    }
}

/// The proxies whose word the server takes for who a client is.
///
/// Each proxy on the way appends the address it saw to `X-Forwarded-For`, so only the entries
/// added by proxies the server trusts can be believed: the client is the right-most entry that
/// is not itself a trusted proxy. A request whose peer is not a trusted proxy comes from that
/// peer, whatever its header says, so a client cannot pass for another by sending the header.
struct TrustedProxies: Sendable {
    private let addresses: Set<IPAddress>

    /// - Throws: ``Server/StartError`` naming an entry that is not an IP address.
    init(_ list: [String]) throws {
        var addresses = Set<IPAddress>()
        for entry in list {
            guard let address = IPAddress(entry) else {
                throw Server.StartError(description: "trusted proxy \"\(entry)\" is not an IP address")
            }
            addresses.insert(address)
        }
        self.addresses = addresses
    }

    private init() {
        addresses = []
    }

    /// Trusting no proxy: every request comes from its peer.
    static let none = TrustedProxies()

    var isEmpty: Bool { addresses.isEmpty }

    /// The client's address for a request from `peer` carrying the `X-Forwarded-For` fields
    /// `forwardedFor` (in order). The peer itself when it is not trusted, or when the
    /// right-most untrusted entry is not an address (a trusted proxy would not write that).
    func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard let peerAddress = IPAddress(peer), addresses.contains(peerAddress) else { return peer }
        for field in forwardedFor.reversed() {
            for entry in field.split(separator: ",").reversed() {
                guard let address = IPAddress(entry) else { return peer }
                if !addresses.contains(address) { return address.text }
            }
        }
        // Every hop was a trusted proxy: the first of them is as near the client as can be known.
        return forwardedFor.first.flatMap { $0.split(separator: ",").first }.flatMap { IPAddress($0)?.text } ?? peer
    }
}
