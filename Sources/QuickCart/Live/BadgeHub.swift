import FoundationEssentials
import MicroHTTP
import Synchronization

/// Keeps every open event stream of every shopper, and tells a shopper's streams (those of all
/// its clients, and no one else's) its new cart count when it changes.
///
/// Shoppers are known here by their ``Session/shopperLiveKey`` and each stream's client by its
/// ``Session/liveKey``, keyed hashes of stored ids, never a cookie's id: news may reach the hub
/// from other machines, and the id is a secret. A client signed out has its streams ended.
///
/// Counts carry the cart's version, so news that arrives out of order (two requests of one
/// session committing close together) never replaces a newer count with an older one.
public final class BadgeHub: Sendable {
    /// One open stream, and whether it asked for ``BadgeText`` after each count (the page's
    /// script does; a client of the counts alone gets exactly `event: badge` / `data: N`).
    private struct Listener {
        let stream: EventStream
        let wantsTexts: Bool
        /// The live key of the client whose stream it is.
        let client: String
    }

    private struct Listeners {
        var streams: [Listener] = []
        /// The newest change these streams were sent; a stream that subscribes later with an
        /// older count read from storage is sent this one instead.
        var latest: CartChange?
        var version: Int64 { latest?.version ?? -1 }
    }

    private struct State {
        var listeners: [String: Listeners] = [:]
        /// The key each moved stream is listed under now (see ``moveStreams(ofClient:to:hearing:)``);
        /// other streams are under the key they subscribed with.
        var movedTo: [ObjectIdentifier: String] = [:]
    }

    private let state = Mutex(State())
    private let maximumStreamsPerSession: Int

    /// Creates a hub that holds at most `maximumStreamsPerSession` streams per shopper; the
    /// oldest is closed when another one opens.
    public init(maximumStreamsPerSession: Int = 16) {
        self.maximumStreamsPerSession = maximumStreamsPerSession
    }

    /// Adds `stream` of the client whose live key is `client` to the listeners of the shopper
    /// whose live key is `liveKey`, and sends it the current count at once: `current`, or the
    /// newer change published since it was read. With `wantsTexts`, each count is followed by a
    /// `badge-text` event (``BadgeText``).
    public func subscribe(_ stream: EventStream, liveKey: String, client: String, current: CartChange, wantsTexts: Bool = false) {
        let listener = Listener(stream: stream, wantsTexts: wantsTexts, client: client)
        let evicted: EventStream? = state.withLock { state in
            var entry = state.listeners[liveKey, default: Listeners()]
            entry.streams.append(listener)
            if let latest = entry.latest, latest.version > current.version {
                Self.send(latest, to: [listener])
            } else {
                entry.latest = current
                Self.send(current, to: [listener])
            }
            let oldest = entry.streams.count > maximumStreamsPerSession ? entry.streams.removeFirst().stream : nil
            state.listeners[liveKey] = entry
            return oldest
        }
        evicted?.close()
        stream.onClose { [weak self] in self?.unsubscribe(stream, liveKey: liveKey) }
    }

    /// Sends the new count to each stream of the shopper whose live key is `liveKey`. News
    /// older than what the streams were last sent, or sent twice, is dropped.
    public func publish(_ change: CartChange, liveKey: String) {
        state.withLock { state in
            guard var entry = state.listeners[liveKey], change.version > entry.version else { return }
            entry.latest = change
            state.listeners[liveKey] = entry
            Self.send(change, to: entry.streams)
        }
    }

    /// Moves the streams of the client whose live key is `client` to the shopper whose live key
    /// is `liveKey`: the client now belongs to that shopper. The moved streams hear `change`
    /// (the join's count), or a newer count the shopper's streams were sent; when `change` is
    /// news here, every stream of the shopper hears it, as ``publish(_:liveKey:)`` does. The
    /// per-shopper limit applies to the streams together; the oldest beyond it are closed.
    public func moveStreams(ofClient client: String, to liveKey: String, hearing change: CartChange) {
        let evicted: [EventStream] = state.withLock { state in
            var moved: [Listener] = []
            for (key, var entry) in state.listeners where key != liveKey && entry.streams.contains(where: { $0.client == client }) {
                moved += entry.streams.filter { $0.client == client }
                entry.streams.removeAll { $0.client == client }
                state.listeners[key] = entry.streams.isEmpty ? nil : entry
            }
            guard !moved.isEmpty else { return [] }
            var entry = state.listeners[liveKey, default: Listeners()]
            if change.version > entry.version {
                entry.latest = change
                Self.send(change, to: entry.streams + moved)
            } else if let latest = entry.latest {
                Self.send(latest, to: moved)
            }
            entry.streams += moved
            for listener in moved { state.movedTo[ObjectIdentifier(listener.stream)] = liveKey }
            let excess = max(0, entry.streams.count - maximumStreamsPerSession)
            let oldest = entry.streams.prefix(excess).map(\.stream)
            entry.streams.removeFirst(excess)
            state.listeners[liveKey] = entry
            return oldest
        }
        for stream in evicted { stream.close() }
    }

    /// Sends `event` with `data` to the streams of the client whose live key is `client` that
    /// asked for texts (the page's script): news for that device alone, such as a device joining
    /// with the code it showed.
    public func tell(client: String, event: String, data: String) {
        let bytes = ServerSentEvent(event: event, data: data).encoded
        let streams = state.withLock { state in
            state.listeners.values.flatMap { $0.streams.filter { $0.client == client && $0.wantsTexts }.map(\.stream) }
        }
        for stream in streams { stream.send(bytes: bytes) }
    }

    /// Ends every stream of the client whose live key is `client` at once: it was signed out.
    /// Rare, so it looks through every shopper rather than keeping an index of clients.
    public func endStreams(ofClient client: String) {
        let ended: [EventStream] = state.withLock { state in
            var ended: [EventStream] = []
            for (key, var entry) in state.listeners where entry.streams.contains(where: { $0.client == client }) {
                ended += entry.streams.filter { $0.client == client }.map(\.stream)
                entry.streams.removeAll { $0.client == client }
                state.listeners[key] = entry.streams.isEmpty ? nil : entry
            }
            return ended
        }
        for stream in ended { stream.close() }
    }

    /// Sends the count to each stream of the shopper whose live key is `liveKey` even if
    /// this version was sent before (but never older news): for news that may have been
    /// missed, such as after a backend's listener reconnected.
    public func resend(_ change: CartChange, liveKey: String) {
        sendAgain(change, liveKey: liveKey, unlessLastSent: false)
    }

    /// Sends the count to each stream of the shopper whose live key is `liveKey` when it is not
    /// the count they were last sent at that version: a new catalog counts a cart again (a
    /// line no longer for sale leaves the count) without changing it. Older news is dropped.
    public func recount(_ change: CartChange, liveKey: String) {
        sendAgain(change, liveKey: liveKey, unlessLastSent: true)
    }

    /// Sends `change` to the shopper's streams unless it is older than what they were sent, or,
    /// with `unlessLastSent`, the very count and version they were sent last.
    private func sendAgain(_ change: CartChange, liveKey: String, unlessLastSent: Bool) {
        state.withLock { state in
            guard var entry = state.listeners[liveKey], change.version >= entry.version else { return }
            if unlessLastSent, let latest = entry.latest, latest.version == change.version, latest.itemCount == change.itemCount { return }
            entry.latest = change
            state.listeners[liveKey] = entry
            Self.send(change, to: entry.streams)
        }
    }

    /// Tells every open stream that asked for texts (the page's script) that the catalog
    /// being sold is now at `version`: `event: catalog`, `data: VERSION`, so open pages re-read
    /// their prices, names and counts as they do after a cart change elsewhere. Streams of the
    /// counts alone hear nothing of it. Each instance calls this once per catalog version it
    /// takes (``QuickCartApp/refreshCatalog()``), whichever session a stream follows.
    public func announceCatalog(version: Int64) {
        let event = ServerSentEvent(event: "catalog", data: String(version)).encoded
        let streams = state.withLock { state in
            state.listeners.values.flatMap { $0.streams.filter(\.wantsTexts).map(\.stream) }
        }
        // Sent outside the lock: a new catalog is rare, and thousands of writes must not hold up
        // the cart changes being published meanwhile.
        for stream in streams { stream.send(bytes: event) }
    }

    /// Tells the streams that asked for texts of the shopper whose live key is `liveKey` that
    /// their order `orderID` moved to `state`: `event: order`, `data:` its number, state and
    /// label as JSON (``OrderNews``), so an open Profile or order page re-reads itself and
    /// says so. Streams of the counts alone hear nothing of it. A move is news once; one that
    /// arrives twice (sent here and back through the database) re-reads the page twice, harmlessly.
    public func announceOrder(_ orderID: Int64, state: OrderState, liveKey: String) {
        let event = ServerSentEvent(event: "order", data: Self.json(OrderNews(orderID: orderID, state: state))).encoded
        let streams = textStreams(of: liveKey)
        for stream in streams { stream.send(bytes: event) }
    }

    private func textStreams(of liveKey: String) -> [EventStream] {
        state.withLock { $0.listeners[liveKey]?.streams.filter(\.wantsTexts).map(\.stream) ?? [] }
    }

    /// The live keys of the shoppers with at least one open stream here.
    public var liveKeysWithOpenStreams: [String] {
        state.withLock { Array($0.listeners.keys) }
    }

    /// How many streams are open in all.
    public var totalStreamCount: Int {
        state.withLock { $0.listeners.values.reduce(0) { $0 + $1.streams.count } }
    }

    private func unsubscribe(_ stream: EventStream, liveKey: String) {
        state.withLock { state in
            let key = state.movedTo.removeValue(forKey: ObjectIdentifier(stream)) ?? liveKey
            guard var entry = state.listeners[key] else { return }
            entry.streams.removeAll { $0.stream === stream }
            state.listeners[key] = entry.streams.isEmpty ? nil : entry
        }
    }

    /// The texts the page shows for a count, as `badge-text` carries them: the script shows
    /// these rather than deriving its own, so they are worded in one place (``Badge``).
    struct BadgeText: Codable, Equatable {
        let count: Int
        /// The badge's text: "3", "240".
        let badge: String
        /// The accessible item count: "1 item", "3 items".
        let items: String

        init(count: Int) {
            self.count = count
            badge = Badge.text(for: count)
            items = Badge.itemCountText(count)
        }
    }

    /// Sends `change` to `listeners`: `badge` with the count alone, and to those that asked,
    /// `badge-text` with its texts (JSON) in the same write, so no reader sees one without the
    /// other. Each event is encoded once, the texts only when someone wants them.
    private static func send(_ change: CartChange, to listeners: [Listener]) {
        let count = ServerSentEvent(event: "badge", data: String(change.itemCount), id: String(change.version)).encoded
        var withTexts: [UInt8]?
        for listener in listeners {
            guard listener.wantsTexts else {
                listener.stream.send(bytes: count)
                continue
            }
            if withTexts == nil {
                withTexts = count + ServerSentEvent(event: "badge-text", data: json(BadgeText(count: change.itemCount))).encoded
            }
            listener.stream.send(bytes: withTexts ?? count)
        }
    }

    /// What `event: device-joined` carries: the words the page shows, and the handle its
    /// Sign out button posts (``SessionManager/deviceHandle(ofClient:)``).
    struct JoinNotice: Codable, Equatable {
        let text: String
        let device: String
    }

    /// The JSON of a ``JoinNotice``.
    static func joinNotice(text: String, device: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(JoinNotice(text: text, device: device))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What `event: order` carries: the order's number, its state's name and the label pages show.
    struct OrderNews: Codable, Equatable {
        let number: String
        let state: String
        let label: String

        init(orderID: Int64, state: OrderState) {
            number = String(orderID)
            self.state = state.rawValue
            label = state.label
        }
    }

    private static func json(_ texts: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Three plain fields always encode.
        return (try? encoder.encode(texts)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// In one process the hub is the whole way: news goes straight to its streams.
extension BadgeHub: BadgePublisher {
    /// Sends `change` to the streams of every client of `session`'s shopper.
    public func publish(_ change: CartChange, for session: Session) {
        publish(change, liveKey: change.shopperLiveKey(for: session))
    }

    public func endStreams(ofClients liveKeys: [String]) {
        for key in liveKeys { endStreams(ofClient: key) }
    }

    public func joined(client clientKey: String, shopper shopperKey: String, change: CartChange, showingClient showingClientKey: String, notice: String) {
        moveStreams(ofClient: clientKey, to: shopperKey, hearing: change)
        publish(change, liveKey: shopperKey)
        tell(client: showingClientKey, event: "device-joined", data: notice)
    }
}
