import CMicroHTTPD
import Dispatch
import Synchronization

/// Ends connections that take too long to send a request.
///
/// libmicrohttpd's own timeout only measures silence, so a client that sends its headers one
/// byte a second would hold a connection forever. The watchdog gives every connection a
/// deadline: its headers must be in within the header timeout of connecting (or of its last
/// answer, which also bounds idle keep-alive), and its body within the body timeout. Streams
/// being answered have no deadline. A connection past its deadline is shut down; libmicrohttpd
/// then sees the end of the stream and closes it.
final class ConnectionWatchdog: Sendable {
    private struct Watch {
        let fd: Int32
        /// Nanoseconds of `DispatchTime` uptime; 0 while the server is answering.
        var deadline: UInt64
    }

    private let watches = Mutex<[UInt: Watch]>([:])
    private let headerTimeout: UInt64
    private let bodyTimeout: UInt64

    init(headerTimeout: Double, bodyTimeout: Double) {
        self.headerTimeout = UInt64(headerTimeout * 1e9)
        self.bodyTimeout = UInt64(bodyTimeout * 1e9)
    }

    /// A connection was accepted: its first request's headers are due.
    func connectionStarted(_ connection: OpaquePointer) {
        let fd = cmhd_connection_fd(connection)
        guard fd >= 0 else { return }
        watches.withLock { $0[Self.key(connection)] = Watch(fd: fd, deadline: Self.now + headerTimeout) }
    }

    /// The connection is gone. Runs before libmicrohttpd closes the socket, so under the lock
    /// a watched descriptor always belongs to its connection.
    func connectionClosed(_ connection: OpaquePointer) {
        _ = watches.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Headers are in; the body (if any) is due.
    func headersReceived(_ connection: OpaquePointer) {
        setDeadline(of: connection, to: Self.now + bodyTimeout)
    }

    /// The request is complete and being answered; no deadline until the answer is done.
    func answering(_ connection: OpaquePointer) {
        setDeadline(of: connection, to: 0)
    }

    /// The answer is done; the next request's headers are due.
    func answered(_ connection: OpaquePointer) {
        setDeadline(of: connection, to: Self.now + headerTimeout)
    }

    /// Shuts down every connection past its deadline.
    func sweep() {
        let now = Self.now
        watches.withLock { watches in
            for (key, watch) in watches where watch.deadline != 0 && watch.deadline < now {
                cmhd_shut_down(watch.fd)
                watches[key]?.deadline = 0
            }
        }
    }

    private func setDeadline(of connection: OpaquePointer, to deadline: UInt64) {
        watches.withLock { $0[Self.key(connection)]?.deadline = deadline }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
