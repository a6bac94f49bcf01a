import CMicroHTTPD

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

    /// Registers `stream` and makes the response that carries it, unless the server is stopping.
    ///
    /// The check and the registration happen under the lock `stop()` takes to collect the
    /// streams it ends, so every stream is either ended by `stop()` or never opened: one that
    /// slipped in after the collection would stay suspended, and libmicrohttpd aborts the
    /// process when a daemon is stopped with a suspended connection.
    func open(_ stream: EventStream, on connection: OpaquePointer) -> StreamOpening {
        guard let (group, key) = streams.withLock({ $0.insert(stream) }) else {
            // Over before it began: whoever waits for its end (a hub holding it) lets go now.
            stream.finish()
            return .refused(HTTPError(.serviceUnavailable, "The server is shutting down.", headers: ["Retry-After": "5"]))
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

    func beat() {
        for stream in streams.withLock({ $0.nextGroup() }) { stream.heartbeat() }
    }
}

/// Open event streams, spread over groups that the heartbeat visits in turn.
struct StreamGroups {
    private var groups: [[ObjectIdentifier: EventStream]]
    private var nextInsert = 0
    private var nextBeat = 0
    /// Set once the server stops: no stream is admitted afterwards.
    private var isClosed = false

    init(count: Int) {
        groups = Array(repeating: [:], count: count)
    }

    /// Adds `stream`; `nil` once closed.
    mutating func insert(_ stream: EventStream) -> (group: Int, key: ObjectIdentifier)? {
        guard !isClosed else { return nil }
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

    /// Admits no more streams and returns every open one, for the server to end.
    mutating func close() -> [EventStream] {
        isClosed = true
        return groups.flatMap(\.values)
    }
}
