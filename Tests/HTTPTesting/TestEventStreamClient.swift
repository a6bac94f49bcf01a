/// Reads server-sent events from a real server, for tests of live updates.
public final class TestEventStreamClient {
    /// One dispatched event.
    public struct Event: Equatable, CustomStringConvertible {
        public var event: String
        public var data: String
        public var id: String?

        public init(event: String, data: String, id: String? = nil) {
            self.event = event
            self.data = data
            self.id = id
        }

        public var description: String { "\(event): \(data)" }
    }

    /// The connection carrying the stream.
    public let connection: TestHTTPClient
    /// The head of the stream's response.
    public let status: Int
    /// The response's `Content-Type`.
    public let contentType: String?
    /// Comment lines seen so far (without the leading colon).
    public private(set) var comments: [String] = []
    /// The `retry:` value last seen.
    public private(set) var retry: Int?

    /// Opens `path` on `127.0.0.1:port` with the given headers (a cookie, say).
    public init(port: Int, path: String = "/events", headers: [(String, String)] = [], timeout: Double = 5) throws {
        connection = try TestHTTPClient(port: port, timeout: timeout)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try connection.send(head + "\r\n")
        let response = try connection.readHead()
        let lines = response.split(separator: "\r\n")
        status = Int(lines.first?.split(separator: " ")[1] ?? "") ?? 0
        contentType = lines.first { $0.lowercased().hasPrefix("content-type:") }
            .map { String($0.dropFirst("content-type:".count)).trimmingSpaces }
    }

    /// Reads until the next event is dispatched. Throws on timeout or end of stream.
    public func next() throws -> Event {
        var event = "message", data: [String] = [], id: String?
        while true {
            let line = try readDecodedLine()
            if line.isEmpty {
                if data.isEmpty { continue }
                return Event(event: event, data: data.joined(separator: "\n"), id: id)
            }
            if line.hasPrefix(":") {
                comments.append(String(line.dropFirst()).trimmingSpaces)
                continue
            }
            let field = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var value = field.count > 1 ? String(field[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch field[0] {
            case "event": event = value
            case "data": data.append(value)
            case "id": id = value
            case "retry": retry = Int(value)
            default: break
            }
        }
    }

    /// Reads one line of the chunked body: chunk-size lines and chunk ends are skipped.
    private var pendingLines: [String] = []
    private var partial = ""

    private func readDecodedLine() throws -> String {
        while pendingLines.isEmpty {
            let sizeLine = try connection.readLine()
            guard let size = Int(sizeLine, radix: 16) else { continue }
            if size == 0 { throw TestHTTPClient.Failure(description: "stream ended") }
            let chunk = String(decoding: try connection.readExactly(size), as: UTF8.self)
            _ = try connection.readLine()
            let text = partial + chunk
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            partial = lines.removeLast()
            pendingLines += lines
        }
        return pendingLines.removeFirst()
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
