import Glibc

/// The service manager's readiness protocol (systemd's `sd_notify`): one datagram of
/// `NAME=value` lines to the `AF_UNIX` socket named by `$NOTIFY_SOCKET` (a path, or `@name`
/// for the abstract namespace). Without the variable it does nothing, so the same executable
/// runs under systemd (`Type=notify`) and anywhere else; no libsystemd is needed for one
/// datagram.
enum ServiceNotification {
    /// Sends `lines` (such as `READY=1`) when a service manager asked for news.
    /// - Returns: Whether the datagram was sent (`false` without `$NOTIFY_SOCKET` too).
    @discardableResult
    static func send(_ lines: [String], environment: [String: String]) -> Bool {
        guard let socketPath = environment["NOTIFY_SOCKET"], !socketPath.isEmpty else { return false }
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        var address = sockaddr_un()
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let message = Array((lines.joined(separator: "\n") + "\n").utf8)
        // The address's length counts the path's bytes only: an abstract name has no terminator.
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
        return sent == message.count
    }
}
