import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps `GET /api/v1/events` open as EventSource does: reconnects after the stream ends or
/// fails, sending `Last-Event-ID`, waiting as the ``ReconnectPolicy`` says (the server's
/// `retry:` first, a 429's or 503's `Retry-After` when it names one), and stops for good on
/// 401 (the token was signed out) or another refusal that trying again cannot mend.
struct EventSource: Sendable {
    let client: QuickCartClient

    /// Seconds without a byte before a connection counts as lost; the server sends a comment
    /// at least every 15 seconds.
    static let idleTimeout: TimeInterval = 45

    /// The events of every connection in turn, until cancelled or refused.
    func events() -> AsyncThrowingStream<ServerEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run { continuation.yield(ServerEvent($0)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ deliver: (EventStreamParser.Event) -> Void) async throws(QuickCartError) {
        var lastEventID = ""
        var reconnectionTime = client.reconnection.initialDelay
        var failures = 0
        while true {
            let headers = ["Accept": "text/event-stream", "Cache-Control": "no-store"]
                .merging(lastEventID.isEmpty ? [:] : ["Last-Event-ID": lastEventID]) { $1 }
            var parser = EventStreamParser(lastEventID: lastEventID)
            var delivered = false
            var wait: Duration?
            do {
                var refusal: (status: Int, contentType: String?, retryAfter: String?)?
                var refusalBody = Data()
                // `?texts` adds orders' moves, catalog changes and joins to the counts.
                let request = client.request("GET", ["events"], query: [("texts", "")], headers: headers)
                for try await piece in StreamingConnection.open(request, requestTimeout: Self.idleTimeout) {
                    switch piece {
                    case .head(let status, let contentType, let retryAfter):
                        if status != 200 || contentType?.lowercased().hasPrefix("text/event-stream") != true {
                            refusal = (status, contentType, retryAfter)
                        }
                    case .body(let data) where refusal != nil:
                        refusalBody.append(data)
                    case .body(let data):
                        // `badge-text` is the pages' wording of a count, for no app.
                        for event in parser.feed(data) where event.name != "badge-text" {
                            delivered = true
                            deliver(event)
                        }
                    }
                }
                if let refusal {
                    if refusal.status == 204 { return }
                    wait = try Self.waitAfter(Answer(status: refusal.status, contentType: refusal.contentType, retryAfter: refusal.retryAfter,
                                                     replayed: nil, body: refusalBody))
                }
            } catch let error as QuickCartError {
                throw error
            } catch {
                // A lost connection (or one never made) is tried again, as EventSource does.
                if QuickCartError(transport: error).isCancellation { throw .cancelled }
            }
            lastEventID = parser.lastEventID
            if let retry = parser.retry { reconnectionTime = .milliseconds(retry) }
            if delivered { failures = 0 }
            let delay = wait ?? client.reconnection.delay(base: reconnectionTime, failures: failures)
            failures += 1
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw .cancelled
            }
        }
    }

    /// How long to wait after the server refused the stream, or the error to stop with:
    /// 429 and 5xx are tried again, after their `Retry-After` when they name one (a full
    /// server's 503 may come from below the API, without problem details) or as the backoff
    /// decides; anything else (401 above all) ends the stream.
    private static func waitAfter(_ refusal: Answer) throws(QuickCartError) -> Duration? {
        guard refusal.status == 429 || (500..<600).contains(refusal.status) else { throw refusal.error }
        return refusal.retryAfterDuration
    }
}

extension QuickCartError {
    var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
