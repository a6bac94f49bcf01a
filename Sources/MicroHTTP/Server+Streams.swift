import CMicroHTTPD

extension Server {
    // MARK: - Event streams

    func open(_ stream: EventStream, on connection: OpaquePointer) -> OpaquePointer? {
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

    func beat() {
        for stream in streams.withLock({ $0.nextGroup() }) { stream.heartbeat() }
    }
}

/// Open event streams, spread over groups that the heartbeat visits in turn.
struct StreamGroups {
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
