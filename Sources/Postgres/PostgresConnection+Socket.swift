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

// MARK: - Waiting for answers

extension PostgresConnection {
    /// Sends one request with `send` (a `PQsend…` call) and collects its results as `PQexec`
    /// would, waiting on the socket for at most ``responseTimeout`` in all.
    ///
    /// - Returns: The last result, passed by ``check(_:operation:sql:)``; the caller clears it.
    /// - Throws: ``PostgresError`` when the request could not be sent or failed, and
    ///   (connection lost) when the answer did not come in time: the connection is closed,
    ///   since a late answer would be taken for the next request's.
    func exchange(operation: String, sql: String?, _ send: (OpaquePointer) -> Int32) throws(PostgresError) -> OpaquePointer {
        try check(collect(operation: operation, sql: sql, send), operation: operation, sql: sql)
    }

    /// ``exchange(operation:sql:_:)``'s results before they are checked: `nil` when the
    /// request could not be sent (libpq's message says why).
    private func collect(operation: String, sql: String?, _ send: (OpaquePointer) -> Int32) throws(PostgresError) -> OpaquePointer? {
        let handle = try openHandle(operation: operation, sql: sql)
        guard send(handle) == 1 else { return nil }
        let deadline = responseTimeout.map { ContinuousClock.now + $0 }
        var last: OpaquePointer?
        while true {
            guard Self.waitUntilReadable(handle, until: deadline) else {
                PQclear(last)
                close()
                timedOut = true
                throw PostgresError(
                    kind: .connectionLost, message: "no answer from the server within \(responseTimeout ?? .zero)", operation: operation, sql: sql
                )
            }
            guard let result = PQgetResult(handle) else { return last }
            PQclear(last)
            last = result
            // As PQexec does: once the connection is gone there is nothing more to wait for,
            // only libpq's own notes of the closed socket.
            if PQstatus(handle) == CONNECTION_BAD { return last }
        }
    }

    /// Waits until `PQgetResult` can answer without blocking: `false` when `deadline` came first.
    private static func waitUntilReadable(_ handle: OpaquePointer, until deadline: ContinuousClock.Instant?) -> Bool {
        while PQisBusy(handle) != 0 {
            var milliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { return false }
                milliseconds = Int32(clamping: Int((remaining / .milliseconds(1)).rounded(.up)))
            }
            let socket = PQsocket(handle)
            // A broken connection answers at once, with its error.
            guard socket >= 0 else { return true }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno != EINTR { return true }
            if ready > 0, PQconsumeInput(handle) == 0 { return true }
        }
        return true
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
