import CMicroHTTPD
import Synchronization

/// An open `text/event-stream` body: what is sent is written to the client as soon as its
/// connection can take it, from any thread.
///
/// No thread waits on an idle stream: when nothing is queued, the server suspends the
/// connection, and `send` resumes it. The server's heartbeat sends a comment now and then and
/// ends streams whose client has gone.
/// ```swift
/// let stream = EventStream()
/// stream.send(ServerSentEvent(event: "badge", data: "3"))
/// stream.onClose { hub.remove(stream) }
/// return Response(headers: ["Content-Type": "text/event-stream"], body: .eventStream(stream))
/// ```
public final class EventStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var sentOffset = 0
        var connection: ConnectionHandle?
        var suspended = false
        var closed = false
        var finished = false
        var refusal: HTTPStatus?
        var closeHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Creates a stream that is not yet attached to a connection; what is sent before the
    /// server attaches it is queued.
    public init() {}

    /// Whether the stream has been closed, by either side or by the server stopping.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// Queues `event` for the client. Does nothing once the stream is closed.
    public func send(_ event: ServerSentEvent) {
        send(bytes: event.encoded)
    }

    /// Queues raw bytes in event-stream format.
    public func send(bytes: [UInt8]) {
        state.withLock { state in
            guard !state.closed else { return }
            state.pending.append(contentsOf: bytes)
            Self.wake(&state)
        }
    }

    /// Ends the stream: what is queued is still written, then the response ends.
    public func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            Self.wake(&state)
        }
    }

    /// The status the client got instead of this stream when the server refused to open it
    /// (503 past a limit on open streams, or while stopping); `nil` for a stream that opened.
    /// Known by the time the close handlers run.
    public var refusal: HTTPStatus? {
        state.withLock { $0.refusal }
    }

    /// Registers `handler` to run once when the stream is over (closed and its connection
    /// done with it). Runs at once if that has already happened.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.finished { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: - Server side

    /// Binds the stream to the connection that will carry it.
    func attach(to connection: ConnectionHandle) {
        state.withLock { $0.connection = connection }
    }

    /// Fills `buffer` for libmicrohttpd's content reader: bytes written, 0 after suspending
    /// the connection when nothing is queued, or `nil` at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        state.withLock { state in
            let available = state.pending.count - state.sentOffset
            if available > 0 {
                let count = min(available, buffer.count)
                state.pending.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[state.sentOffset..<state.sentOffset + count]))
                }
                state.sentOffset += count
                if state.sentOffset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: state.pending.capacity <= 4096)
                    state.sentOffset = 0
                }
                return count
            }
            if state.closed { return nil }
            guard let connection = state.connection else { return nil }
            // Suspend under the lock that `wake` takes, so a resume never races a suspend.
            state.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// The bytes of a keep-alive comment, built once for every stream's heartbeats.
    private static let keepAlive = ServerSentEvent.comment("keep-alive")

    /// Sends a keep-alive comment, or ends the stream if its client has gone. libmicrohttpd
    /// does not watch suspended sockets, so without this a departed client lingers forever.
    func heartbeat() {
        state.withLock { state in
            guard !state.closed, state.connection != nil else { return }
            if !Self.endIfPeerHasLeft(&state) { state.pending.append(contentsOf: Self.keepAlive) }
            Self.wake(&state)
        }
    }

    /// Ends the stream if its client has gone while it waited (suspended), as the heartbeat
    /// would later: for the server to free its place now, for a new stream that needs it.
    /// - Returns: Whether it ended the stream.
    func endIfPeerHasLeft() -> Bool {
        state.withLock { state in
            guard !state.closed, Self.endIfPeerHasLeft(&state) else { return false }
            Self.wake(&state)
            return true
        }
    }

    /// Marks the stream over, its queue dropped, when it is suspended and its peer has left.
    private static func endIfPeerHasLeft(_ state: inout State) -> Bool {
        guard state.suspended, let connection = state.connection, connection.peerHasLeft else { return false }
        state.closed = true
        state.pending.removeAll()
        state.sentOffset = 0
        return true
    }

    /// Records that the server answered `status` instead of opening the stream, and ends it.
    func refuse(with status: HTTPStatus) {
        state.withLock { $0.refusal = status }
        finish()
    }

    /// Marks the stream over once libmicrohttpd is done with its connection, and runs the
    /// close handlers.
    func finish() {
        let handlers = state.withLock { state in
            state.closed = true
            state.finished = true
            state.suspended = false
            state.connection = nil
            defer { state.closeHandlers.removeAll() }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }

    private static func wake(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        // Resuming a connection that is not suspended is undefined behaviour in libmicrohttpd.
        state.suspended = false
        MHD_resume_connection(connection.pointer)
    }
}

/// A libmicrohttpd connection pointer that may cross threads.
///
/// `@unchecked Sendable` because libmicrohttpd documents `MHD_resume_connection` as callable
/// from any thread, and ``EventStream`` only uses the pointer under its lock while the
/// connection is alive (it drops it in `finish()`).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    var peerHasLeft: Bool {
        let fd = cmhd_connection_fd(pointer)
        return fd < 0 || cmhd_peer_has_left(fd) != 0
    }
}
