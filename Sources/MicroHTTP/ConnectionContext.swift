import CMicroHTTPD
import Synchronization

/// What the server keeps about one connection across its requests. libmicrohttpd holds it as
/// the connection's socket context, so each request reaches it through a field read, with no
/// lock and no hashing on the way; the ``ConnectionWatchdog`` owns it from the connection's
/// start to its close.
final class ConnectionContext: Sendable {
    /// The connection's socket.
    let fd: Int32
    /// The peer's address as text, empty when unknown: formatted once per connection, not per request.
    let peerAddress: String
    /// When the watchdog ends the connection, in nanoseconds of `DispatchTime` uptime; 0 while
    /// the server is answering.
    let deadline: Atomic<UInt64>
    /// The current request's raw target, when the responder reads raw targets: the URI-log
    /// callback copies it here before libmicrohttpd decodes it in place.
    let rawTarget = Mutex("")

    init(fd: Int32, peerAddress: String, deadline: UInt64) {
        self.fd = fd
        self.peerAddress = peerAddress
        self.deadline = Atomic(deadline)
    }

    /// The context of `connection`, or `nil` when it has none (its socket could not be read).
    static func of(_ connection: OpaquePointer) -> ConnectionContext? {
        cmhd_socket_context(connection).map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The peer's address of `connection` as text, or an empty string.
    static func peerAddress(of connection: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cmhd_client_address(connection, buffer.baseAddress!, socklen_t(buffer.count)) == 0 else { return "" }
            return String(cString: buffer.baseAddress!)
        }
    }
}
