import CMicroHTTPD
import Dispatch

extension Server {
    // MARK: - Event streams

    /// What became of a stream the responder answered with.
    enum StreamOpening {
        /// The libmicrohttpd response that carries it.
        case opened(OpaquePointer)
        /// Not opened; answer with this error instead.
        case refused(HTTPError)
        /// libmicrohttpd could not make a response.
        case failed
    }

    /// Registers `stream` for the client at `address` (an IPv6 one counted by its /64) and makes the response that carries it, unless the
    /// server is stopping or a limit on open streams is reached.
    ///
    /// The checks and the registration happen under the lock `stop()` takes to collect the
    /// streams it ends, so every stream is either ended by `stop()` or never opened: one that
    /// slipped in after the collection would stay suspended, and libmicrohttpd aborts the
    /// process when a daemon is stopped with a suspended connection.
    func open(_ stream: EventStream, on connection: OpaquePointer, for address: String) -> StreamOpening {
        let client = IPAddress.limitKey(of: address)
        let lifetime = configuration.maximumEventStreamLifetime
        let deadline = lifetime > 0 ? DispatchTime.now().uptimeNanoseconds + UInt64(lifetime * 1e9) : UInt64.max
        var admission = streams.withLock { $0.insert(stream, client: client, deadline: deadline) }
        // A client that left while its stream waited is otherwise noticed only at that stream's
        // heartbeat, seconds later: at a limit, the streams it counts are looked at now, and
        // the places of those whose clients left go to this one.
        if admission == .tooManyFromClient || admission == .tooMany,
           freeDepartedStreams(of: admission == .tooMany ? nil : client) > 0 {
            admission = streams.withLock { $0.insert(stream, client: client, deadline: deadline) }
        }
        guard case .admitted(let group, let key) = admission else {
            // Over before it began: whoever waits for its end (a hub holding it) lets go now.
            let refusal = Self.refusal(admission)
            if admission != .stopping { refusedEventStreams.add(1, ordering: .relaxed) }
            stream.refuse(with: refusal.status)
            return .refused(refusal)
        }
        stream.attach(to: ConnectionHandle(pointer: connection))
        stream.onClose { [weak self] in
            self?.streams.withLock { $0.remove(key, from: group) }
        }
        let context = Unmanaged.passRetained(stream).toOpaque()
        guard let response = MHD_create_response_from_callback(UInt64.max, 2048, eventStreamReader, context, eventStreamFinished) else {
            Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue().finish()
            return .failed
        }
        return .opened(response)
    }

    /// Ends the open streams of `client` (all, for `nil`) whose clients have left, and frees
    /// their places at once (their connections close on libmicrohttpd's threads afterwards).
    /// - Returns: How many places were freed.
    private func freeDepartedStreams(of client: String?) -> Int {
        let held = streams.withLock { $0.entries(of: client) }
        var freed = 0
        for (stream, group, key) in held where stream.endIfPeerHasLeft() {
            streams.withLock { $0.remove(key, from: group) }
            freed += 1
        }
        return freed
    }

    /// 503 with `Retry-After`, which a browser's `EventSource` or the page's script can wait out.
    private static func refusal(_ admission: StreamGroups.Admission) -> HTTPError {
        let message = switch admission {
        case .stopping: "The server is shutting down."
        case .tooManyFromClient: "Too many live updates are open from this address. Close a few tabs, or wait a moment."
        default: "Too many live updates are open on this server right now. Please wait a moment."
        }
        return HTTPError(
            .serviceUnavailable, message, reason: admission == .stopping ? .shuttingDown : .tooManyStreams,
            headers: ["Retry-After": admission == .stopping ? "5" : "10"]
        )
    }

    /// One heartbeat tick: the streams of the group whose turn it is get a keep-alive comment,
    /// or are ended once past their lifetime.
    func beat() {
        let (live, expired) = streams.withLock { $0.nextGroup(now: DispatchTime.now().uptimeNanoseconds) }
        for stream in expired { stream.close() }
        for stream in live { stream.heartbeat() }
    }
}

/// Open event streams, spread over groups that the heartbeat visits in turn, with the limits
/// on how many may be open, in all and per client address.
struct StreamGroups {
    /// Whether a stream was admitted, and where it went.
    enum Admission: Equatable {
        case admitted(group: Int, key: ObjectIdentifier)
        case stopping
        case tooMany
        case tooManyFromClient
    }

    private struct Entry {
        let stream: EventStream
        /// The client address it counts against.
        let client: String
        /// `DispatchTime` uptime nanoseconds after which the stream is ended.
        let deadline: UInt64
    }

    private var groups: [[ObjectIdentifier: Entry]]
    private var streamsPerClient: [String: Int] = [:]
    private var nextInsert = 0
    private var nextBeat = 0
    /// Set once the server stops: no stream is admitted afterwards.
    private var isClosed = false
    private let limit: Int
    private let limitPerClient: Int

    /// How many streams are open.
    private(set) var count = 0

    /// - Parameters:
    ///   - count: Heartbeat groups.
    ///   - limit: Streams open at once; `0`: no limit.
    ///   - limitPerClient: Streams one client address may hold; `0`: no limit.
    init(count: Int, limit: Int, limitPerClient: Int) {
        groups = Array(repeating: [:], count: count)
        self.limit = limit
        self.limitPerClient = limitPerClient
    }

    /// Adds `stream` for `client`, unless closed or a limit is reached.
    mutating func insert(_ stream: EventStream, client: String, deadline: UInt64) -> Admission {
        guard !isClosed else { return .stopping }
        guard limit == 0 || count < limit else { return .tooMany }
        let held = streamsPerClient[client, default: 0]
        guard limitPerClient == 0 || held < limitPerClient else { return .tooManyFromClient }
        streamsPerClient[client] = held + 1
        count += 1
        let group = nextInsert
        nextInsert = (nextInsert + 1) % groups.count
        let key = ObjectIdentifier(stream)
        groups[group][key] = Entry(stream: stream, client: client, deadline: deadline)
        return .admitted(group: group, key: key)
    }

    /// Removes a stream (once: a second call for it does nothing).
    mutating func remove(_ key: ObjectIdentifier, from group: Int) {
        guard let entry = groups[group].removeValue(forKey: key) else { return }
        count -= 1
        let held = streamsPerClient[entry.client, default: 1] - 1
        streamsPerClient[entry.client] = held > 0 ? held : nil
    }

    /// The open streams of `client` (every one, for `nil`), with where each is kept.
    func entries(of client: String?) -> [(stream: EventStream, group: Int, key: ObjectIdentifier)] {
        var found: [(stream: EventStream, group: Int, key: ObjectIdentifier)] = []
        for (group, entries) in groups.enumerated() {
            for (key, entry) in entries where client == nil || entry.client == client {
                found.append((entry.stream, group, key))
            }
        }
        return found
    }

    /// The streams of the group whose turn it is: those still within their lifetime, and
    /// those past it.
    mutating func nextGroup(now: UInt64) -> (live: [EventStream], expired: [EventStream]) {
        defer { nextBeat = (nextBeat + 1) % groups.count }
        var live: [EventStream] = []
        var expired: [EventStream] = []
        live.reserveCapacity(groups[nextBeat].count)
        for entry in groups[nextBeat].values {
            if entry.deadline < now { expired.append(entry.stream) } else { live.append(entry.stream) }
        }
        return (live, expired)
    }

    /// Admits no more streams and returns every open one, for the server to end.
    mutating func close() -> [EventStream] {
        isClosed = true
        return groups.flatMap { $0.values.map(\.stream) }
    }
}
