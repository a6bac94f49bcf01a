import CPostgres
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Receives PostgreSQL notifications (`NOTIFY`, `pg_notify`) on one dedicated connection.
///
/// The listener owns a thread that opens a connection, runs `LISTEN` for each channel,
/// then sleeps in poll(2) on the connection's socket; each notification is handed to
/// `onNotification` on that thread, in the order the server sent them. Keep the callback
/// short (hand the news to a hub), since the next notification waits for it.
///
/// When the connection drops (PostgreSQL restarts, the network fails), the listener
/// reconnects by itself, waiting 50 ms, then twice as long after each failure up to 2 s,
/// each wait shortened by a random part so that many instances do not reconnect in
/// lockstep. Notifications sent while it was away are lost, so once it listens again it
/// calls `onReconnect`: resynchronise from the tables there.
///
/// ```swift
/// let listener = try PostgresListener(
///     connectionString: url,
///     channels: ["cart_changed"],
///     onNotification: { notification in hub.publish(notification.payload) },
///     onReconnect: { hub.refreshAll() }
/// )
/// listener.start()
/// // ...
/// listener.stop()
/// ```
///
/// It needs a direct connection (or a session-mode pooler): `LISTEN` belongs to a session.
public final class PostgresListener: Sendable {
    /// One notification: the channel it was sent on and its payload.
    public struct Notification: Sendable, Hashable {
        /// The channel name, as the sender spelled it.
        public let channel: String
        /// The payload; empty when none was given.
        public let payload: String

        /// Creates a notification.
        ///
        /// - Parameters:
        ///   - channel: The channel name.
        ///   - payload: The payload.
        public init(channel: String, payload: String) {
            self.channel = channel
            self.payload = payload
        }
    }

    /// How the listener connects and reconnects.
    public struct Configuration: Sendable {
        /// The wait before the first reconnection attempt; doubled after each failure.
        public var initialBackoff: Duration
        /// The longest wait between reconnection attempts.
        public var maximumBackoff: Duration
        /// Options for the listening connection.
        public var connection: PostgresConnection.Configuration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - initialBackoff: The first wait; 50 ms by default.
        ///   - maximumBackoff: The longest wait; 2 s by default.
        ///   - connection: Options for the listening connection.
        public init(
            initialBackoff: Duration = .milliseconds(50),
            maximumBackoff: Duration = .seconds(2),
            connection: PostgresConnection.Configuration = PostgresConnection.Configuration(connectTimeout: .seconds(2))
        ) {
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.connection = connection
        }
    }

    /// The channels listened on.
    public let channels: [String]

    /// The reconnection settings.
    public let configuration: Configuration

    /// Private, so it cannot be printed by accident: it may hold a password.
    private let connectionString: String
    private let onNotification: @Sendable (Notification) -> Void
    private let onReconnect: @Sendable () -> Void
    /// A pipe whose write end ``stop()`` uses to wake the thread from poll(2).
    private let wakeReadDescriptor: Int32
    private let wakeWriteDescriptor: Int32
    private let state = Mutex(State())
    /// Signalled by the thread when it ends.
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var phase = Phase.idle
        /// How many times `LISTEN` was established; tests and callers can wait on it.
        var sessions = 0
        var isListening = false
    }

    private enum Phase {
        case idle, running, stopping, stopped
    }

    // MARK: - Creating, starting and stopping

    /// Creates a listener; ``start()`` starts it.
    ///
    /// - Parameters:
    ///   - connectionString: A `postgres://` URL or a libpq keyword/value string.
    ///   - channels: The channel names, case-sensitive (quoted in `LISTEN`).
    ///   - configuration: Reconnection settings.
    ///   - onNotification: Called on the listener's thread for every notification.
    ///   - onReconnect: Called on the listener's thread each time it listens again after
    ///     having lost its connection or failed to get one, before any new notification.
    /// - Throws: ``PostgresError`` (misuse) if the connection string does not parse.
    public init(
        connectionString: String,
        channels: [String],
        configuration: Configuration = Configuration(),
        onNotification: @escaping @Sendable (Notification) -> Void,
        onReconnect: @escaping @Sendable () -> Void = {}
    ) throws {
        precondition(!channels.isEmpty, "a PostgresListener needs at least one channel")
        try PostgresConnection.validate(connectionString)
        var descriptors: [Int32] = [-1, -1]
        guard cpostgres_pipe_cloexec(&descriptors, 1) == 0 else {
            throw PostgresError.misuse("cannot create the wake-up pipe (errno \(errno))", operation: PostgresConnection.Operation.listen)
        }
        self.connectionString = connectionString
        self.channels = channels
        self.configuration = configuration
        self.onNotification = onNotification
        self.onReconnect = onReconnect
        self.wakeReadDescriptor = descriptors[0]
        self.wakeWriteDescriptor = descriptors[1]
    }

    deinit {
        close(wakeReadDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Starts the listening thread; it connects in the background. Calling it again, or
    /// after ``stop()``, does nothing.
    public func start() {
        let mayStart = state.withLock { state in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard mayStart else { return }
        // A thread of its own, not a Dispatch worker: it blocks in poll for as long as it listens.
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let listener = Unmanaged<PostgresListener>.fromOpaque(context!).takeRetainedValue()
            listener.run()
            listener.finished.signal()
            return nil
        }, box)
        precondition(created == 0, "cannot start the PostgreSQL listener thread: \(created)")
        pthread_detach(thread)
    }

    /// Stops listening, closes the connection and waits for the thread to end. No callback
    /// runs after it returns. Calling it again does nothing.
    ///
    /// Do not call it from inside a callback: it would wait for itself.
    public func stop() {
        let wasRunning = state.withLock { state in
            defer { if state.phase == .idle { state.phase = .stopped } }
            guard state.phase == .running else { return false }
            state.phase = .stopping
            return true
        }
        guard wasRunning else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriteDescriptor, &byte, 1)
        finished.wait()
        state.withLock { $0.phase = .stopped }
    }

    /// Whether the listener has a live connection with every `LISTEN` in force.
    public var isListening: Bool {
        state.withLock { $0.isListening }
    }

    /// How many times the listener has established its `LISTEN`s: 1 after the first
    /// connection, one more after each reconnection.
    public var sessionCount: Int {
        state.withLock { $0.sessions }
    }

    /// Waits until the listener has established its `LISTEN`s at least `sessions` times,
    /// checking every few milliseconds. For startup and tests.
    ///
    /// - Parameters:
    ///   - sessions: The count to reach; 1 waits for the first connection.
    ///   - timeout: How long to wait.
    /// - Returns: `true` if it was reached (and the listener is listening), `false` on timeout.
    @discardableResult
    public func waitUntilListening(sessions: Int = 1, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let reached = state.withLock { $0.sessions >= sessions && $0.isListening }
            if reached { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
    }

    // MARK: - The listening thread

    private var isStopping: Bool {
        state.withLock { $0.phase != .running }
    }

    private func run() {
        var backoff = configuration.initialBackoff
        var hadGap = false
        while !isStopping {
            guard let connection = connectAndListen() else {
                hadGap = true
                guard sleep(for: backoff) else { return }
                backoff = min(backoff * 2, configuration.maximumBackoff)
                continue
            }
            backoff = configuration.initialBackoff
            state.withLock { state in
                state.sessions += 1
                state.isListening = true
            }
            if hadGap {
                onReconnect()
            }
            hadGap = true
            let stopped = receive(on: connection)
            state.withLock { $0.isListening = false }
            connection.close()
            if stopped { return }
            guard sleep(for: backoff) else { return }
            backoff = min(backoff * 2, configuration.maximumBackoff)
        }
    }

    /// Opens the connection and runs every `LISTEN`, or returns `nil` if either fails.
    private func connectAndListen() -> PostgresConnection? {
        do {
            let connection = try PostgresConnection(connectionString: connectionString, configuration: configuration.connection)
            for channel in channels {
                let quoted = "\"" + channel.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
                try connection.runCommand("LISTEN \(quoted)", operation: PostgresConnection.Operation.listen)
            }
            return connection
        } catch {
            return nil
        }
    }

    /// Delivers notifications until the connection breaks or ``stop()`` is called.
    ///
    /// - Returns: `true` if stopped, `false` if the connection broke.
    private func receive(on connection: PostgresConnection) -> Bool {
        // Notifications may have arrived with the LISTEN results already.
        deliver(from: connection)
        while true {
            var descriptors = [
                pollfd(fd: connection.socketDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeReadDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if descriptors[1].revents != 0 || isStopping {
                return true
            }
            guard connection.consumeInput() else {
                // Deliver what arrived before the connection broke.
                deliver(from: connection)
                return false
            }
            deliver(from: connection)
        }
    }

    private func deliver(from connection: PostgresConnection) {
        while let notification = connection.nextNotification() {
            onNotification(notification)
        }
    }

    /// Waits `duration` shortened by up to half at random, waking early for ``stop()``.
    ///
    /// - Returns: `false` if stopped meanwhile.
    private func sleep(for duration: Duration) -> Bool {
        let milliseconds = Int(duration / .milliseconds(1))
        let jittered = max(1, milliseconds / 2 + Int.random(in: 0...max(0, milliseconds / 2)))
        var descriptor = pollfd(fd: wakeReadDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(jittered))
        return !isStopping
    }
}
