/// One message of the `text/event-stream` format (WHATWG HTML, "Server-sent events").
///
/// ```swift
/// stream.send(ServerSentEvent(event: "badge", data: "3", id: "17"))
/// ```
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type (`event:`); `nil` means the default `message`.
    public var event: String?
    /// The payload; each line becomes one `data:` line.
    public var data: String
    /// The id the client echoes as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The reconnection delay the client should use, in milliseconds.
    public var retry: Int?

    /// Creates an event.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// The event in wire format, ending with the blank line that dispatches it.
    /// Line breaks inside the fields cannot break the framing: `data` is split into lines,
    /// and breaks in `event` and `id` are dropped.
    public var encoded: [UInt8] {
        var text = ""
        if let retry { text += "retry: \(retry)\n" }
        if let id { text += "id: \(Self.singleLine(id))\n" }
        if let event { text += "event: \(Self.singleLine(event))\n" }
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            text += "data: \(line)\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    /// A comment line, which clients ignore; used to keep a connection alive.
    public static func comment(_ text: String) -> [UInt8] {
        Array(": \(singleLine(text))\n\n".utf8)
    }

    private static func singleLine(_ text: String) -> String {
        String(text.filter { !$0.isNewline })
    }
}
