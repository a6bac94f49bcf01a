/// Reads the `text/event-stream` format as the HTML standard's EventSource does: lines ending
/// in LF, CRLF or CR, fields `event`, `data`, `id` and `retry`, comments, and an event
/// dispatched at each blank line that follows data.
struct EventStreamParser {
    /// A dispatched event.
    struct Event: Equatable {
        let name: String
        let data: String
        /// The last event id seen so far (it carries over to later events without one).
        let id: String
    }

    /// The last event id, sent back as `Last-Event-ID` when reconnecting.
    private(set) var lastEventID: String
    /// The reconnection delay the stream asked for with `retry:`, in milliseconds.
    private(set) var retry: Int?

    private var line: [UInt8] = []
    private var afterCR = false
    private var name = ""
    private var data: [String] = []

    init(lastEventID: String = "") {
        self.lastEventID = lastEventID
    }

    /// Reads more of the stream and returns the events it completed.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                fallthrough
            case UInt8(ascii: "\n"):
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[line.index(after: $0)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        switch field {
        case "event": name = text
        case "data": data.append(text)
        case "id" where !value.contains(0): lastEventID = text
        case "retry" where !value.isEmpty && value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }):
            retry = Int(text)
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> Event? {
        defer { name = ""; data = [] }
        guard !data.isEmpty else { return nil }
        return Event(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"), id: lastEventID)
    }
}
