#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address and port to bind, parsed from text.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    /// Parses an IP literal; `localhost` means `127.0.0.1`.
    /// - Throws: ``Server/StartError`` for anything else, or a port outside 0...65535.
    init(host: String, port: Int) throws {
        guard (0...65535).contains(port) else {
            throw Server.StartError(description: "port \(port) is outside 0...65535")
        }
        let literal = host == "localhost" ? "127.0.0.1" : host.trimmingBrackets
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            storage = Self.store(v4)
            isIPv6 = false
        } else if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            storage = Self.store(v6)
            isIPv6 = true
        } else {
            throw Server.StartError(description: "host \"\(host)\" is not an IP address (or localhost)")
        }
    }

    private static func store<Address>(_ address: Address) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeBytes(of: address) { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
        }
        return storage
    }

    /// Lends the address as a `sockaddr` pointer for the duration of `body`.
    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}

private extension String {
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
