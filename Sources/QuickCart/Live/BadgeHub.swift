import MicroHTTP
import Synchronization

/// Keeps every open event stream of every session, and tells a session's streams (and no
/// one else's) its new cart count when it changes.
///
/// Counts carry the cart's version, so news that arrives out of order (two requests of one
/// session committing close together) never replaces a newer count with an older one.
public final class BadgeHub: Sendable {
    private struct Listeners {
        var streams: [EventStream] = []
        var version: Int64 = -1
    }

    private let listeners = Mutex<[String: Listeners]>([:])
    private let maximumStreamsPerSession: Int

    /// Creates a hub that holds at most `maximumStreamsPerSession` streams per session; the
    /// oldest is closed when another one opens.
    public init(maximumStreamsPerSession: Int = 16) {
        self.maximumStreamsPerSession = maximumStreamsPerSession
    }

    /// Adds `stream` to the session's listeners and sends it the current count, unless newer
    /// news has already been published.
    public func subscribe(_ stream: EventStream, sessionID: String, current: CartChange) {
        let evicted: EventStream? = listeners.withLock { all in
            var entry = all[sessionID, default: Listeners()]
            entry.streams.append(stream)
            if current.version >= entry.version {
                entry.version = current.version
                stream.send(bytes: Self.event(for: current))
            }
            let oldest = entry.streams.count > maximumStreamsPerSession ? entry.streams.removeFirst() : nil
            all[sessionID] = entry
            return oldest
        }
        evicted?.close()
        stream.onClose { [weak self] in self?.unsubscribe(stream, sessionID: sessionID) }
    }

    /// Sends the session's new count to each of its streams.
    public func publish(_ change: CartChange, sessionID: String) {
        listeners.withLock { all in
            guard var entry = all[sessionID], change.version > entry.version else { return }
            entry.version = change.version
            all[sessionID] = entry
            let event = Self.event(for: change)
            for stream in entry.streams { stream.send(bytes: event) }
        }
    }

    /// How many streams are open in all.
    public var totalStreamCount: Int {
        listeners.withLock { $0.values.reduce(0) { $0 + $1.streams.count } }
    }

    private func unsubscribe(_ stream: EventStream, sessionID: String) {
        listeners.withLock { all in
            guard var entry = all[sessionID] else { return }
            entry.streams.removeAll { $0 === stream }
            all[sessionID] = entry.streams.isEmpty ? nil : entry
        }
    }

    private static func event(for change: CartChange) -> [UInt8] {
        ServerSentEvent(event: "badge", data: String(change.itemCount), id: String(change.version)).encoded
    }
}
