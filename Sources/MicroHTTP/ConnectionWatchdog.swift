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
    /// Every watched connection's context, by connection, for the sweep.
    private let contexts = Mutex<[UInt: ConnectionContext]>([:])
    private let headerTimeout: UInt64
    private let bodyTimeout: UInt64

    init(headerTimeout: Double, bodyTimeout: Double) {
        self.headerTimeout = UInt64(headerTimeout * 1e9)
        self.bodyTimeout = UInt64(bodyTimeout * 1e9)
    }

    /// A connection was accepted: its first request's headers are due. Its context goes into
    /// `socketContext`, libmicrohttpd's slot for it.
    func connectionStarted(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let fd = cmhd_connection_fd(connection)
        guard fd >= 0 else { return }
        let context = ConnectionContext(fd: fd, peerAddress: ConnectionContext.peerAddress(of: connection), deadline: Self.now + headerTimeout)
        contexts.withLock { $0[Self.key(connection)] = context }
        socketContext.pointee = Unmanaged.passUnretained(context).toOpaque()
    }

    /// The connection is gone. Runs before libmicrohttpd closes the socket, so under the lock
    /// a watched descriptor always belongs to its connection.
    func connectionClosed(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        socketContext.pointee = nil
        _ = contexts.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Headers are in; the body (if any) is due.
    func headersReceived(_ connection: OpaquePointer) {
        ConnectionContext.of(connection)?.deadline.store(Self.now + bodyTimeout, ordering: .relaxed)
    }

    /// The request is complete and being answered; no deadline until the answer is done.
    func answering(_ connection: OpaquePointer) {
        ConnectionContext.of(connection)?.deadline.store(0, ordering: .relaxed)
    }

    /// The answer is done; the next request's headers are due.
    func answered(_ connection: OpaquePointer) {
        ConnectionContext.of(connection)?.deadline.store(Self.now + headerTimeout, ordering: .relaxed)
    }

    /// Shuts down every connection past its deadline.
    func sweep() {
        let now = Self.now
        contexts.withLock { contexts in
            for context in contexts.values {
                let deadline = context.deadline.load(ordering: .relaxed)
                // Exchanged only if the connection's thread has not moved the deadline since:
                // a request that arrived meanwhile keeps its connection.
                if deadline != 0, deadline < now,
                   context.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged {
                    cmhd_shut_down(context.fd)
                }
            }
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
