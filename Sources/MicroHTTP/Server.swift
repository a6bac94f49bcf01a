import CMicroHTTPD
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads in poll mode, each request handed
/// to an ``HTTPResponder`` once it is complete.
///
/// ```swift
/// let server = Server(configuration: .init(port: 0), responder: router)
/// try server.start()
/// print("http://127.0.0.1:\(server.port)/")
/// …
/// server.stop()
/// ```
/// Requests are answered only once fully read, so keep-alive works for every answer
/// (libmicrohttpd closes connections whose answer came before the request was complete).
/// Bad requests never reach the responder's `respond(to:)`: malformed percent-escapes and
/// invalid UTF-8 get 400, bodies over the limit 413, through `respond(to:for:)`.
public final class Server: Sendable {
    /// The configuration the server was created with.
    public let configuration: Configuration
    let responder: any HTTPResponder
    private let daemon = Mutex<DaemonHandle?>(nil)
    private let timers = Mutex<[RepeatingTimer]>([])
    let watchdog: ConnectionWatchdog
    /// Open event streams in heartbeat groups: each tick of the heartbeat visits one group, so
    /// keep-alives are spread over the interval instead of waking every stream at once (with
    /// ten thousand streams, one burst would delay live events by tens of milliseconds).
    let streams: Mutex<StreamGroups>
    let requestsInFlight = Atomic<Int>(0)
    let refusedEventStreams = Atomic<Int>(0)
    private let boundPort = Atomic<Int>(0)
    let isStopping = Atomic<Bool>(false)
    /// Set by a successful ``start()``, under `daemon`'s lock: stopping leaves the server
    /// refusing everything, so it is never started again.
    private let hasStarted = Atomic<Bool>(false)
    /// Files answered by the server itself, before any responder, and their address prefix.
    let staticFiles: StaticFiles?
    let staticPrefix: String
    /// Proxies whose `X-Forwarded-For` names the client.
    let trustedProxies: TrustedProxies
    /// Connections held per client address, for ``Configuration/connectionsPerIPLimit``.
    let connectionsPerClient: Mutex<ConnectionsPerClient>

    /// Creates a server; it does not listen until ``start()``.
    /// - Parameters:
    ///   - configuration: Address, threads, limits and timeouts.
    ///   - responder: Answers every request (and every refusal).
    ///   - files: Files the server answers itself, as a bare C server would: a `GET` or `HEAD`
    ///     without a body for `prefix` + a file's path gets the file (or 304) with the header
    ///     fields `files` was loaded with, without building a ``Request`` or reaching the
    ///     responder, so such answers are not seen by its middleware (an access log among
    ///     them). Anything else under the prefix — unknown files, other methods, bodies,
    ///     non-ASCII queries — goes to the responder as usual.
    ///   - prefix: Where `files` are, e.g. `/static/`.
    public init(configuration: Configuration = Configuration(), responder: any HTTPResponder, serving files: StaticFiles? = nil, at prefix: String = "/static/") {
        self.configuration = configuration
        self.responder = responder
        staticFiles = files
        staticPrefix = prefix
        watchdog = ConnectionWatchdog(headerTimeout: configuration.requestHeaderTimeout, bodyTimeout: configuration.requestBodyTimeout)
        let groups = max(1, Int((configuration.heartbeatInterval / Self.heartbeatTick).rounded()))
        streams = Mutex(StreamGroups(
            count: groups, limit: configuration.maximumEventStreams, limitPerClient: configuration.maximumEventStreamsPerClient
        ))
        // Checked again by `start()`, which can report an entry that is not an address.
        trustedProxies = (try? TrustedProxies(configuration.trustedProxies)) ?? TrustedProxies.none
        connectionsPerClient = Mutex(ConnectionsPerClient(limit: configuration.connectionsPerIPLimit))
    }

    deinit {
        stop()
    }

    /// The port the server listens on (the chosen one when configured with port 0); 0 before start.
    public var port: Int { boundPort.load(ordering: .relaxed) }

    /// Event streams currently open.
    public var openEventStreamCount: Int { streams.withLock { $0.count } }

    /// Event streams refused because a limit on open streams was reached (not while stopping).
    public var refusedEventStreamCount: Int { refusedEventStreams.load(ordering: .relaxed) }

    /// How often the heartbeat ticks; each tick visits one group of streams.
    static let heartbeatTick = 0.1

    // MARK: - Starting and stopping

    /// Binds the address and starts serving on libmicrohttpd's threads.
    ///
    /// A server is started once: calling this again, even after ``stop()``, is a programming
    /// error that stops the process; to serve again, create a new server. (A start that threw
    /// may be retried.)
    /// - Throws: ``StartError`` when the address cannot be bound (in use, not local, malformed).
    public func start() throws {
        try daemon.withLock { daemon in
            precondition(daemon == nil && !hasStarted.load(ordering: .relaxed), "a Server is started once; create a new one to serve again")
            _ = try TrustedProxies(configuration.trustedProxies)
            if let tls = configuration.tls { try claimTLSIdentity(tls) }
            // A client that leaves mid-answer must not kill the process.
            signal(SIGPIPE, SIG_IGN)
            let openFiles = Int(cmhd_raise_open_file_limit(UInt(configuration.connectionLimit + 256)))
            let connectionLimit = max(16, min(configuration.connectionLimit, openFiles - 128))

            var address = try SocketAddress(host: configuration.host, port: configuration.port)
            // poll, not epoll: with a thread pool in epoll mode, libmicrohttpd 0.9.75 can abort the
            // process in MHD_quiesce_daemon when a worker removes the listening socket from its
            // epoll set first (daemon.c:5531; reproduced by Tests/Sanitizers/stop-under-load.swift).
            // Suspended event streams are not polled, so poll costs nothing for idle streams.
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            if configuration.logsLibraryMessages { flags |= MHD_USE_ERROR_LOG.rawValue }
            if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
            let priorities = configuration.tls?.priorities ?? ""

            let context = Unmanaged.passRetained(self).toOpaque()
            let started: OpaquePointer? = priorities.withCString { priorities in address.withSockaddr { sockaddr in
                var config = cmhd_daemon_config(
                    flags: UInt32(flags),
                    address: sockaddr,
                    handler: accessHandler,
                    handler_cls: context,
                    completed: requestCompleted,
                    completed_cls: context,
                    uri_log: rawURIInspector,
                    // Non-nil asks the inspector to keep each raw target (see its comment).
                    uri_log_cls: responder.readsRawTargets ? context : nil,
                    notify_connection: connectionNotified,
                    notify_connection_cls: context,
                    accept_policy: acceptPolicy,
                    accept_policy_cls: context,
                    log_sink: libraryLogSink,
                    thread_pool_size: UInt32(configuration.threadCount),
                    connection_limit: UInt32(connectionLimit),
                    connection_timeout: UInt32(configuration.connectionTimeout),
                    connection_memory_limit: configuration.connectionMemoryLimit,
                    // Counted by the server itself (`ConnectionsPerClient`), an IPv6 address by its /64.
                    per_ip_connection_limit: 0,
                    listen_backlog: 1024,
                    // Not 1: at 1 libmicrohttpd answers a missing Host itself, with a bare page. At 0
                    // it differs from 1 only there and in allowing spaces in the target, and
                    // `begin` refuses both (`RawTarget` refuses spaces), through the responder.
                    strict_for_client: 0,
                    tls_certificate_callback: configuration.tls == nil ? nil : TLSIdentity.certificateCallback,
                    tls_priorities: priorities
                )
                return cmhd_start_daemon(&config)
            } }
            guard let started else {
                let reason = String(cString: strerror(errno))
                releaseTLSIdentity()
                Unmanaged<Server>.fromOpaque(context).release()
                throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port): \(reason)")
            }
            daemon = DaemonHandle(pointer: started, context: context)
            hasStarted.store(true, ordering: .relaxed)
            boundPort.store(Int(cmhd_bound_port(started)), ordering: .relaxed)
            // Under the lock, so a `stop()` racing this start finds the timers to cancel.
            // Keep-alive comments on event streams, which also find clients that left.
            repeatEvery(min(Self.heartbeatTick, configuration.heartbeatInterval)) { [weak self] in self?.beat() }
            // Deadlines for slow clients; a second's precision is plenty.
            repeatEvery(1) { [weak self] in self?.watchdog.sweep() }
        }
    }

    /// Stops accepting connections, ends every event stream, waits up to the grace period for
    /// requests in flight, then closes everything. Safe to call more than once.
    public func stop() {
        guard let handle = daemon.withLock({ daemon in
            defer { daemon = nil }
            return daemon
        }) else { return }
        isStopping.store(true, ordering: .sequentiallyConsistent)
        timers.withLock { timers in
            for timer in timers { timer.source.cancel() }
            timers.removeAll()
        }
        let listener = MHD_quiesce_daemon(handle.pointer)
        if listener >= 0 { close(listener) }
        // libmicrohttpd forbids stopping with suspended connections: end every stream first,
        // and admit no new one (see `open(_:on:)`).
        for stream in streams.withLock({ $0.close() }) { stream.close() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(configuration.shutdownGracePeriod * 1e9)
        while requestsInFlight.load(ordering: .sequentiallyConsistent) > 0, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(2_000)
        }
        MHD_stop_daemon(handle.pointer)
        releaseTLSIdentity()
        Unmanaged<Server>.fromOpaque(handle.context).release()
    }

    // MARK: - TLS

    /// Rereads the certificate and key files for the handshakes that follow; connections and
    /// event streams already open keep going as they are. When the files cannot be used (a
    /// half-written renewal, a key of another certificate) the identity in force stays.
    /// - Throws: ``StartError`` saying what is wrong with the files; without TLS, nothing happens.
    public func reloadTLSIdentity() throws {
        guard let tls = configuration.tls, daemon.withLock({ $0 != nil }) else { return }
        try TLSIdentity.load(tls)
    }

    private func claimTLSIdentity(_ tls: TLSConfiguration) throws(StartError) {
        guard TLSIdentity.isSupported else { throw StartError(description: "this libmicrohttpd cannot serve HTTPS (built without GnuTLS)") }
        try TLSIdentity.checkPriorities(tls.priorities)
        let claimed = TLSIdentity.holder.withLock { holder in
            guard holder == nil else { return false }
            holder = ObjectIdentifier(self)
            return true
        }
        guard claimed else { throw StartError(description: "another server of this process serves HTTPS already; one TLS listener per process") }
        do {
            try TLSIdentity.load(tls)
        } catch {
            releaseTLSIdentity()
            throw error
        }
    }

    private func releaseTLSIdentity() {
        TLSIdentity.holder.withLock { holder in
            if holder == ObjectIdentifier(self) { holder = nil }
        }
    }

    // MARK: - Timers

    private func repeatEvery(_ seconds: Double, _ work: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: .global())
        let interval = DispatchTimeInterval.milliseconds(Int(seconds * 1000))
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler(handler: work)
        timers.withLock { $0.append(RepeatingTimer(source: source)) }
        source.resume()
    }
}

/// The running daemon and the retained server pointer libmicrohttpd holds.
/// `@unchecked Sendable`: `stop()` takes it out from under the server's lock, and only that
/// call uses it afterwards; libmicrohttpd's daemon calls are thread-safe.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let context: UnsafeMutableRawPointer
}

/// `@unchecked Sendable`: a Dispatch timer may be cancelled from any thread.
private struct RepeatingTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
