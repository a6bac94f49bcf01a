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
    private let responder: any HTTPResponder
    private let daemon = Mutex<DaemonHandle?>(nil)
    private let timers = Mutex<[RepeatingTimer]>([])
    private let watchdog: ConnectionWatchdog
    /// Open event streams in heartbeat groups: each tick of the heartbeat visits one group, so
    /// keep-alives are spread over the interval instead of waking every stream at once (with
    /// ten thousand streams, one burst would delay live events by tens of milliseconds).
    private let streams: Mutex<StreamGroups>
    private let requestsInFlight = Atomic<Int>(0)
    private let boundPort = Atomic<Int>(0)
    private let isStopping = Atomic<Bool>(false)
    /// Files answered by the server itself, before any responder, and their address prefix.
    private let staticFiles: StaticFiles?
    private let staticPrefix: String

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
        streams = Mutex(StreamGroups(count: groups))
    }

    deinit {
        stop()
    }

    /// The port the server listens on (the chosen one when configured with port 0); 0 before start.
    public var port: Int { boundPort.load(ordering: .relaxed) }

    /// Event streams currently open.
    public var openEventStreamCount: Int { streams.withLock { $0.count } }

    /// How often the heartbeat ticks; each tick visits one group of streams.
    private static let heartbeatTick = 0.1

    // MARK: - Starting and stopping

    /// Binds the address and starts serving on libmicrohttpd's threads.
    /// - Throws: ``StartError`` when the address cannot be bound (in use, not local, malformed).
    public func start() throws {
        try daemon.withLock { daemon in
            precondition(daemon == nil, "Server.start() called twice")
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

            let context = Unmanaged.passRetained(self).toOpaque()
            let started: OpaquePointer? = address.withSockaddr { sockaddr in
                var config = cmhd_daemon_config(
                    flags: UInt32(flags),
                    address: sockaddr,
                    handler: accessHandler,
                    handler_cls: context,
                    completed: requestCompleted,
                    completed_cls: context,
                    uri_log: rawURIInspector,
                    uri_log_cls: nil,
                    notify_connection: connectionNotified,
                    notify_connection_cls: context,
                    log_sink: libraryLogSink,
                    thread_pool_size: UInt32(configuration.threadCount),
                    connection_limit: UInt32(connectionLimit),
                    connection_timeout: UInt32(configuration.connectionTimeout),
                    connection_memory_limit: configuration.connectionMemoryLimit,
                    per_ip_connection_limit: UInt32(configuration.connectionsPerIPLimit),
                    listen_backlog: 1024,
                    strict_for_client: 1
                )
                return cmhd_start_daemon(&config)
            }
            guard let started else {
                let reason = String(cString: strerror(errno))
                Unmanaged<Server>.fromOpaque(context).release()
                throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port): \(reason)")
            }
            daemon = DaemonHandle(pointer: started, context: context)
            boundPort.store(Int(cmhd_bound_port(started)), ordering: .relaxed)
        }
        // Keep-alive comments on event streams, which also find clients that left.
        repeatEvery(min(Self.heartbeatTick, configuration.heartbeatInterval)) { [weak self] in self?.beat() }
        // Deadlines for slow clients; a second's precision is plenty.
        repeatEvery(1) { [weak self] in self?.watchdog.sweep() }
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
        // libmicrohttpd forbids stopping with suspended connections: end every stream first.
        for stream in streams.withLock({ $0.all }) { stream.close() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(configuration.shutdownGracePeriod * 1e9)
        while requestsInFlight.load(ordering: .sequentiallyConsistent) > 0, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(2_000)
        }
        MHD_stop_daemon(handle.pointer)
        Unmanaged<Server>.fromOpaque(handle.context).release()
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

    private func beat() {
        for stream in streams.withLock({ $0.nextGroup() }) { stream.heartbeat() }
    }

    // MARK: - Requests

    /// One call of libmicrohttpd's access handler; see `MHD_AccessHandlerCallback`.
    fileprivate func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        guard let stateAddress = slot.pointee, stateAddress != malformedURIMarker else {
            return begin(connection: connection, url: url, method: method, slot: slot)
        }
        let state = Unmanaged<RequestState>.fromOpaque(stateAddress).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            defer { uploadSize.pointee = 0 }
            return receive(upload, count: uploadSize.pointee, into: state)
        }
        guard !state.answered else { return true }
        watchdog.answering(connection)
        if let file = state.staticFile {
            state.answered = true
            let tags = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "If-None-Match").map { String(cString: $0) }
            return queue(file.answer(ifNoneMatch: tags), on: connection, for: state)
        }
        state.finishBody()
        let response = if let rejection = state.rejection {
            responder.respond(to: rejection, for: state.request)
        } else {
            responder.respond(to: state.request)
        }
        state.answered = true
        return queue(response, on: connection, for: state)
    }

    /// The first call: headers are in, the body (if any) is not.
    private func begin(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        let uriIsWellFormed = slot.pointee != malformedURIMarker
        let path = String(validatingCString: url)
        if uriIsWellFormed, let path, let file = staticFile(for: connection, path: path, method: method) {
            watchdog.headersReceived(connection)
            let state = RequestState(request: Request(method: .get, path: ""), maximumFormFields: 0)
            state.staticFile = file
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
            requestsInFlight.add(1, ordering: .sequentiallyConsistent)
            return true
        }
        let query = Self.values(of: MHD_ValueKind.GET_ARGUMENT_KIND, on: connection)
        let decodedQuery = query.compactMap { pair in pair.value.map { (name: pair.name, value: $0) } }
        // A value that is not UTF-8 became nil: the request is refused below, with no query.
        let queryIsUTF8 = decodedQuery.count == query.count
        let request = Request(
            method: HTTPMethod(rawValue: String(cString: method)),
            path: path ?? "/",
            query: queryIsUTF8 ? Parameters(decodedQuery) : Parameters(),
            headers: Self.headers(on: connection),
            cookies: Self.cookies(on: connection),
            remoteAddress: Self.clientAddress(of: connection)
        )
        watchdog.headersReceived(connection)
        let state = RequestState(request: request, maximumFormFields: configuration.maximumFormFields)
        slot.pointee = Unmanaged.passRetained(state).toOpaque()
        requestsInFlight.add(1, ordering: .sequentiallyConsistent)

        if isStopping.load(ordering: .sequentiallyConsistent) {
            // Stopping means no new work, even on connections kept alive from before.
            state.rejection = HTTPError(.serviceUnavailable, "The server is shutting down. Please try again in a moment.", headers: ["Retry-After": "5"])
        } else if !uriIsWellFormed || path == nil || !queryIsUTF8 {
            state.rejection = HTTPError(.badRequest, "The address contains a malformed percent-escape or text that is not valid UTF-8.")
        } else if Self.hasAmbiguousLength(request.headers) {
            // Two lengths, or a length beside chunked encoding, is how requests get smuggled
            // past a proxy that reads the body differently.
            state.rejection = HTTPError(.badRequest, "The request states its length more than once.")
        } else if let length = request.headers["Content-Length"].flatMap(Int.init), length > configuration.maximumBodySize {
            state.rejection = Self.bodyTooLarge(limit: configuration.maximumBodySize)
        }
        if let rejection = state.rejection {
            // Answering now makes libmicrohttpd close the connection instead of reading the body.
            state.answered = true
            watchdog.answering(connection)
            return queue(responder.respond(to: rejection, for: state.request), on: connection, for: state)
        }
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        let isURLEncodedForm = contentType.hasPrefix("application/x-www-form-urlencoded")
        if isURLEncodedForm {
            state.formEncoding = PercentEncodingValidator(rejectsControlCharacters: false)
        }
        if isURLEncodedForm || contentType.hasPrefix("multipart/form-data") {
            let stateAddress = Unmanaged.passUnretained(state).toOpaque()
            // The buffer only has to hold a field's name (values arrive in pieces); libmicrohttpd
            // zeroes all of it for every form, so it is kept at the 1 KiB its manual suggests.
            state.postProcessor = MHD_create_post_processor(connection, 1024, formFieldReceiver, stateAddress)
        }
        return true
    }

    /// The file a request is for, when the server answers it itself: a `GET` or `HEAD` under
    /// the static prefix for a served file, with no body and an ASCII query (anything that
    /// could need a refusal goes the usual way, through the responder).
    private func staticFile(for connection: OpaquePointer, path: String, method: UnsafePointer<CChar>) -> StaticFiles.File? {
        guard let staticFiles, !isStopping.load(ordering: .relaxed),
              strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0,
              MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length") == nil,
              MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Transfer-Encoding") == nil,
              path.hasPrefix(staticPrefix),
              let file = staticFiles.file(at: path.dropFirst(staticPrefix.count)) else { return nil }
        var asciiQuery = true
        withUnsafeMutablePointer(to: &asciiQuery) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.GET_ARGUMENT_KIND, asciiChecker, pointer)
        }
        return asciiQuery ? file : nil
    }

    /// Takes a piece of the body. A body that outgrows the limit is discarded and answered
    /// with 413 once complete (libmicrohttpd accepts an answer only before or after the body);
    /// one that goes on far past the limit gets its connection closed.
    private func receive(_ upload: UnsafePointer<CChar>?, count: Int, into state: RequestState) -> Bool {
        state.bytesReceived += count
        guard !state.answered, state.rejection == nil, let upload else {
            return state.bytesReceived <= configuration.maximumBodySize * 16
        }
        if state.bytesReceived > configuration.maximumBodySize {
            state.rejection = Self.bodyTooLarge(limit: configuration.maximumBodySize)
        } else if state.postProcessor != nil {
            let piece = UnsafeRawBufferPointer(start: upload, count: count)
            state.formEncoding?.feed(piece)
            state.formBody.append(contentsOf: piece)
        } else {
            state.request.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count))
        }
        return true
    }

    private static func hasAmbiguousLength(_ headers: HTTPHeaders) -> Bool {
        let lengths = headers.values(named: "Content-Length")
        return lengths.count > 1 || (!lengths.isEmpty && headers.contains("Transfer-Encoding"))
    }

    private static func bodyTooLarge(limit: Int) -> HTTPError {
        HTTPError(.contentTooLarge, "The request body is larger than the \(limit / 1024) KiB this server accepts.")
    }

    fileprivate func completed(_ connection: OpaquePointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        if let connection { watchdog.answered(connection) }
        guard let stateAddress = slot?.pointee, stateAddress != malformedURIMarker else { return }
        Unmanaged<RequestState>.fromOpaque(stateAddress).release()
        slot?.pointee = nil
        requestsInFlight.subtract(1, ordering: .relaxed)
    }

    fileprivate func connection(_ connection: OpaquePointer, changed event: MHD_ConnectionNotificationCode) {
        if event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
            watchdog.connectionStarted(connection)
        } else {
            watchdog.connectionClosed(connection)
        }
    }

    // MARK: - Answers

    private func queue(_ response: Response, on connection: OpaquePointer, for state: RequestState) -> Bool {
        if case .shared(let shared) = response.body, !isStopping.load(ordering: .sequentiallyConsistent) {
            // The prepared response reads the shared bytes until the request completes.
            state.sharedBody = shared
            return shared.queuePrepared(status: UInt32(response.status.code), headers: response.headers, on: connection) { handle in
                Self.addFields(of: response.headers, to: handle)
            }
        }
        let created: OpaquePointer?
        switch response.body {
        case .empty:
            created = MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .shared(let shared):
            let context = Unmanaged.passRetained(shared).toOpaque()
            created = MHD_create_response_from_buffer_with_free_callback_cls(
                shared.count, UnsafeMutableRawPointer(mutating: shared.buffer.baseAddress), sharedBytesSent, context
            )
            if created == nil { Unmanaged<SharedBytes>.fromOpaque(context).release() }
        case .eventStream(let stream):
            guard !isStopping.load(ordering: .sequentiallyConsistent) else {
                return queue(responder.respond(to: HTTPError(.serviceUnavailable, "The server is shutting down."), for: Request(method: .get, path: "/")), on: connection, for: state)
            }
            created = open(stream, on: connection)
        }
        guard let created else { return false }
        defer { MHD_destroy_response(created) }
        Self.addFields(of: response.headers, to: created)
        if isStopping.load(ordering: .sequentiallyConsistent) {
            // Answers given while stopping close their connection, so the stop can finish.
            MHD_add_response_header(created, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status.code), created) == MHD_Result.YES
    }

    /// Adds every header field but `Content-Length`, which libmicrohttpd sets itself.
    private static func addFields(of headers: HTTPHeaders, to response: OpaquePointer) {
        for field in headers where !field.name.equalsIgnoringASCIICase("Content-Length") {
            add(field, to: response)
        }
    }

    /// Adds a header field to a libmicrohttpd response. Short Swift strings live inline and
    /// have no NUL-terminated storage to lend, so passing them as C strings would allocate a
    /// copy each; both are copied to the stack with their terminators instead.
    private static func add(_ field: HTTPHeaders.Field, to response: OpaquePointer) {
        var name = field.name
        var value = field.value
        name.withUTF8 { name in
            value.withUTF8 { value in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + value.count + 2) { buffer in
                    let bytes = UnsafeMutableRawBufferPointer(buffer)
                    bytes.copyMemory(from: UnsafeRawBufferPointer(name))
                    bytes[name.count] = 0
                    UnsafeMutableRawBufferPointer(rebasing: bytes[(name.count + 1)...]).copyMemory(from: UnsafeRawBufferPointer(value))
                    bytes[name.count + 1 + value.count] = 0
                    let base = buffer.baseAddress!
                    MHD_add_response_header(response, base, base + name.count + 1)
                }
            }
        }
    }

    private func open(_ stream: EventStream, on connection: OpaquePointer) -> OpaquePointer? {
        stream.attach(to: ConnectionHandle(pointer: connection))
        let (group, key) = streams.withLock { $0.insert(stream) }
        stream.onClose { [weak self] in
            self?.streams.withLock { $0.remove(key, from: group) }
        }
        let context = Unmanaged.passRetained(stream).toOpaque()
        guard let response = MHD_create_response_from_callback(UInt64.max, 2048, eventStreamReader, context, eventStreamFinished) else {
            Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue().finish()
            return nil
        }
        return response
    }

    // MARK: - Reading what libmicrohttpd parsed

    /// Calls `body` with each name and value of `kind`, in order.
    private static func forEachValue(of kind: MHD_ValueKind, on connection: OpaquePointer, _ body: (String, String?) -> Void) {
        withoutActuallyEscaping(body) { body in
            var visitor = body
            withUnsafeMutablePointer(to: &visitor) { pointer in
                _ = MHD_get_connection_values_n(connection, kind, valueVisitor, pointer)
            }
        }
    }

    private static func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(name: String, value: String?)] {
        var collected: [(name: String, value: String?)] = []
        forEachValue(of: kind, on: connection) { collected.append((name: $0, value: $1)) }
        return collected
    }

    private static func headers(on connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        forEachValue(of: MHD_ValueKind.HEADER_KIND, on: connection) { headers.add($0, $1 ?? "") }
        return headers
    }

    private static func cookies(on connection: OpaquePointer) -> [String: String] {
        var cookies: [String: String] = [:]
        forEachValue(of: MHD_ValueKind.COOKIE_KIND, on: connection) { name, value in
            if cookies[name] == nil { cookies[name] = value ?? "" }
        }
        return cookies
    }

    private static func clientAddress(of connection: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cmhd_client_address(connection, buffer.baseAddress!, socklen_t(buffer.count)) == 0 else { return "" }
            return String(cString: buffer.baseAddress!)
        }
    }
}

// MARK: - Handles

/// Open event streams, spread over groups that the heartbeat visits in turn.
private struct StreamGroups {
    private var groups: [[ObjectIdentifier: EventStream]]
    private var nextInsert = 0
    private var nextBeat = 0

    init(count: Int) {
        groups = Array(repeating: [:], count: count)
    }

    mutating func insert(_ stream: EventStream) -> (group: Int, key: ObjectIdentifier) {
        let group = nextInsert
        nextInsert = (nextInsert + 1) % groups.count
        let key = ObjectIdentifier(stream)
        groups[group][key] = stream
        return (group, key)
    }

    mutating func remove(_ key: ObjectIdentifier, from group: Int) {
        groups[group].removeValue(forKey: key)
    }

    /// How many streams are open.
    var count: Int { groups.reduce(0) { $0 + $1.count } }

    /// The streams of the group whose turn it is.
    mutating func nextGroup() -> [EventStream] {
        defer { nextBeat = (nextBeat + 1) % groups.count }
        return Array(groups[nextBeat].values)
    }

    var all: [EventStream] { groups.flatMap(\.values) }
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

// MARK: - C callbacks (they capture nothing; context travels in their `cls` arguments)

/// Marks a request whose raw URI failed validation; never dereferenced.
private var malformedURIMarker: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 0x1) }

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, slot in
    guard let cls, let connection, let url, let method, let uploadSize, let slot else { return MHD_Result.NO }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let handled = server.handle(connection: connection, url: url, method: method, upload: upload, uploadSize: uploadSize, slot: slot)
    return handled ? MHD_Result.YES : MHD_Result.NO
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, slot, _ in
    guard let cls else { return }
    Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().completed(connection, slot)
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, event in
    guard let cls, let connection else { return }
    Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().connection(connection, changed: event)
}

/// Sees the raw request target before libmicrohttpd decodes it; its answer becomes the
/// request's initial `con_cls`.
private let rawURIInspector: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, uri, _ in
    guard let uri else { return malformedURIMarker }
    return PercentEncodingValidator.isWellFormedTarget(uri) ? nil : malformedURIMarker
}

/// Hands each name and value to the visitor `cls` points to, as Swift strings: a name that is
/// not UTF-8 is decoded with replacement characters, a value that is not UTF-8 becomes `nil`.
private let valueVisitor: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return MHD_Result.YES }
    let visit = cls.assumingMemoryBound(to: ((String, String?) -> Void).self)
    let name = validUTF8(key, count: keySize) ?? String(decoding: bytes(key, count: keySize), as: UTF8.self)
    visit.pointee(name, value.flatMap { validUTF8($0, count: valueSize) })
    return MHD_Result.YES
}

/// Clears the `Bool` `cls` points to at the first name or value with a byte outside ASCII.
private let asciiChecker: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls else { return MHD_Result.NO }
    let isASCII = { (text: UnsafePointer<CChar>?, count: Int) in
        text.map { bytes($0, count: count).allSatisfy { $0 < 0x80 } } ?? true
    }
    guard isASCII(key, keySize), isASCII(value, valueSize) else {
        cls.assumingMemoryBound(to: Bool.self).pointee = false
        return MHD_Result.NO
    }
    return MHD_Result.YES
}

/// libmicrohttpd's text of `count` bytes (a C string: its terminator follows) as a string, or
/// `nil` when it is not UTF-8. The C-string initializer is the fast, non-generic one; text
/// with a NUL inside, which it would cut short, takes the general path.
private func validUTF8(_ text: UnsafePointer<CChar>, count: Int) -> String? {
    if text[count] == 0, memchr(text, 0, count) == nil {
        return String(validatingCString: text)
    }
    return String(validating: bytes(text, count: count), as: UTF8.self)
}

/// C text as bytes (`CChar` and `UInt8` are related types, so viewing one as the other is allowed).
private func bytes(_ text: UnsafePointer<CChar>, count: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count)
}

private let formFieldReceiver: MHD_PostDataIterator = { cls, _, key, _, _, _, data, offset, size in
    guard let cls, let key else { return MHD_Result.YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let name = Array(UnsafeRawBufferPointer(start: key, count: strlen(key)))
    let piece = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    return state.appendFormData(name: name, piece: piece, offset: offset) ? MHD_Result.YES : MHD_Result.NO
}

/// libmicrohttpd is done with a response's shared bytes.
private let sharedBytesSent: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<SharedBytes>.fromOpaque(cls).release()
}

private let eventStreamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return -1 }
    let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
    guard let count = stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else {
        return -1 // MHD_CONTENT_READER_END_OF_STREAM
    }
    return count
}

private let eventStreamFinished: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<EventStream>.fromOpaque(cls).takeRetainedValue().finish()
}

private let libraryLogSink: @convention(c) (UnsafePointer<CChar>?) -> Void = { message in
    guard let message else { return }
    var line = "microhttpd: " + String(cString: message)
    if !line.hasSuffix("\n") { line += "\n" }
    _ = line.withCString { write(2, $0, strlen($0)) }
}
