/// The shopper's live events as an `AsyncSequence`: iterating opens `GET /api/v1/events?texts` and
/// keeps it open, reconnecting as ``ReconnectPolicy`` says, until the loop ends, the task is
/// cancelled, or the server refuses the stream for good (then the loop throws, e.g.
/// ``QuickCartError/unauthorized(_:)`` once the device was signed out).
public struct ServerEvents: AsyncSequence, Sendable {
    /// Each event of the stream.
    public typealias Element = ServerEvent

    let source: EventSource

    /// Opens the stream; each iteration has its own connection.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: source.events().makeAsyncIterator())
    }

    /// Reads the events of one iteration.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ServerEvent, any Error>.AsyncIterator

        /// The next event, or `nil` when the task was cancelled.
        public mutating func next() async throws(QuickCartError) -> ServerEvent? {
            do {
                return try await base.next()
            } catch let error as QuickCartError {
                if error.isCancellation { return nil }
                throw error
            } catch {
                throw QuickCartError(transport: error)
            }
        }
    }
}

/// The badge's number as an `AsyncSequence` of counts: the count when the stream opens, then
/// each new count, across reconnections (a reconnection's repeat of the count already
/// delivered for the same cart version is left out). Feed a SwiftUI model's `count` from it.
public struct BadgeCounts: AsyncSequence, Sendable {
    /// The badge's number.
    public typealias Element = Int

    let events: ServerEvents

    /// Opens the stream; each iteration has its own connection.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: events.makeAsyncIterator())
    }

    /// Reads the counts of one iteration.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var events: ServerEvents.AsyncIterator
        var last: (count: Int, version: String?)?

        /// The next count, or `nil` when the task was cancelled.
        public mutating func next() async throws(QuickCartError) -> Int? {
            while let event = try await events.next() {
                guard case .badge(let count, let version) = event else { continue }
                if let last, last.count == count, last.version != nil, last.version == version { continue }
                last = (count, version)
                return count
            }
            return nil
        }
    }
}

extension QuickCartClient {
    /// `GET /api/v1/events?texts`: the shopper's live events (badge counts, order moves, catalog
    /// changes, devices joining), kept open across lost connections.
    public func events() -> ServerEvents {
        ServerEvents(source: EventSource(client: self))
    }

    /// The badge's live count (see ``BadgeCounts``).
    public func badgeCounts() -> BadgeCounts {
        BadgeCounts(events: events())
    }
}
