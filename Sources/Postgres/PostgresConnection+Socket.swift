import CPostgres
#if canImport(Glibc)
import Glibc
#endif

extension PostgresConnection {
    /// Whether this idle connection is fit to lend, checked without a round trip.
    ///
    /// An idle connection that does not LISTEN should receive nothing. When the server
    /// shuts down or ends the backend, it sends a FATAL message and closes the socket; both
    /// make the socket readable. So anything readable means "discard", and after a restart
    /// of PostgreSQL the pool drops every stale connection before lending it.
    var isUsableWhileIdle: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE else {
            return false
        }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        var ready = poll(&descriptor, 1, 0)
        // A signal says nothing about the connection: ask again rather than drop it.
        while ready < 0, errno == EINTR {
            ready = poll(&descriptor, 1, 0)
        }
        return ready == 0
    }
}

// MARK: - Notifications, for the listener

extension PostgresConnection {
    /// The socket libpq talks on, for poll(2); -1 once closed or broken.
    var socketDescriptor: Int32 {
        handle.map { PQsocket($0) } ?? -1
    }

    /// Reads whatever arrived on the socket into libpq's buffer.
    ///
    /// - Returns: `false` if the connection broke (the server ended it, the network failed).
    func consumeInput() -> Bool {
        guard let handle else { return false }
        return PQconsumeInput(handle) != 0 && PQstatus(handle) == CONNECTION_OK
    }

    /// The next notification libpq has received, copied out, or `nil` when none is left.
    func nextNotification() -> PostgresListener.Notification? {
        guard let handle, let notify = PQnotifies(handle) else { return nil }
        defer { PQfreemem(notify) }
        return PostgresListener.Notification(
            channel: String(cString: notify.pointee.relname),
            payload: String(cString: notify.pointee.extra)
        )
    }
}
