import Foundation

/// One event of the shopper's live stream (`GET /api/v1/events`), the same events the web's
/// pages hear.
public enum ServerEvent: Hashable, Sendable {
    /// The cart's count changed (or the stream opened): the badge's number, and the cart
    /// version it belongs to (the event's id).
    case badge(count: Int, version: String?)
    /// One of the shopper's orders moved to `state`; `label` is its name as pages show it.
    case order(id: String, state: OrderState, label: String)
    /// The catalog being sold changed; read it again.
    case catalog(version: String)
    /// Another device joined the shopper with a code this device showed; `notice` is what the
    /// web's pages say ("A new device joined: … — not you? Sign it out.").
    case deviceJoined(notice: String)
    /// Any other event, by its name and data.
    case other(name: String, data: String)

    /// Reads a dispatched server-sent event.
    init(_ event: EventStreamParser.Event) {
        switch event.name {
        case "badge":
            if let count = Int(event.data), count >= 0 {
                self = .badge(count: count, version: event.id.isEmpty ? nil : event.id)
                return
            }
        case "order":
            if let news = try? JSONDecoder().decode(OrderNews.self, from: Data(event.data.utf8)) {
                self = .order(id: news.number, state: OrderState(rawValue: news.state), label: news.label)
                return
            }
        case "catalog":
            self = .catalog(version: event.data)
            return
        case "device-joined":
            if let notice = try? JSONDecoder().decode(JoinNotice.self, from: Data(event.data.utf8)) {
                self = .deviceJoined(notice: notice.text)
                return
            }
        default:
            break
        }
        self = .other(name: event.name, data: event.data)
    }

    /// What `event: device-joined` carries (its `device` is the web page's sign-out handle).
    private struct JoinNotice: Decodable {
        let text: String
    }

    /// What `event: order` carries.
    private struct OrderNews: Decodable {
        let number: String
        let state: String
        let label: String
    }
}
