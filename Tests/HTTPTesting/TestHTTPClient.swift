#if canImport(Glibc)
import Glibc
#endif

/// A deliberately small HTTP/1.1 client over a blocking socket, for tests that must send
/// exactly the bytes they mean (malformed escapes, oversized bodies, raw headers) to a real
/// server on the loopback interface.
public final class TestHTTPClient {
    /// A parsed answer.
    public struct Response: CustomStringConvertible {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The first header named `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// Every header named `name`.
        public func headers(named name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        /// The body decoded as UTF-8.
        public var text: String { String(decoding: body, as: UTF8.self) }

        public var description: String { "HTTP \(status) \(headers) \(text.prefix(400))" }
    }

    /// A failure to talk to the server.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let socket: Int32
    private var buffered: [UInt8] = []

    /// Connects to `127.0.0.1:port`, with a receive timeout in seconds.
    public init(port: Int, timeout: Double = 10) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
    }

    deinit {
        close(socket)
    }

    /// Closes the connection at once, as a client that vanishes would.
    public func disconnect() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    // MARK: - Requests

    /// Sends `GET path` and reads the answer.
    public func get(_ path: String, headers: [(String, String)] = []) throws -> Response {
        try request("GET", path, headers: headers)
    }

    /// Sends an urlencoded form and reads the answer. Names and values are encoded here.
    public func post(_ path: String, form: [(String, String)], headers: [(String, String)] = []) throws -> Response {
        let body = form.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return try request(
            "POST", path,
            headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(body.utf8)
        )
    }

    /// Sends a request with `Host` and `Content-Length` filled in, and reads the answer.
    public func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse(method: method)
    }

    /// Writes raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Writes raw text.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    // MARK: - Reading

    /// Reads one response; `HEAD` answers have no body.
    public func readResponse(method: String = "GET") throws -> Response {
        let headText = try readHead()
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(headText)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        var response = Response(status: status, headers: headers, body: [])
        if method == "HEAD" || status == 304 || status == 204 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunked()
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    /// Reads the head of a response: status line and headers, without the blank line.
    public func readHead() throws -> String {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffered[..<end], as: UTF8.self)
                buffered.removeFirst(end + 4)
                return head
            }
            try fill()
        }
    }

    /// Reads up to the next line feed, without it.
    public func readLine() throws -> String {
        while true {
            if let end = buffered.firstIndex(of: 10) {
                var line = Array(buffered[..<end])
                buffered.removeFirst(end + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    /// Whether the server has closed the connection (reads until end of stream or timeout).
    public func serverClosed() -> Bool {
        do {
            while true { try fill() }
        } catch let failure as Failure {
            return failure.description == "connection closed"
        } catch {
            return false
        }
    }

    /// Reads exactly `count` bytes.
    public func readExactly(_ count: Int) throws -> [UInt8] {
        while buffered.count < count { try fill() }
        let bytes = Array(buffered[..<count])
        buffered.removeFirst(count)
        return bytes
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                throw Failure(description: "bad chunk size \(sizeLine)")
            }
            if size == 0 {
                _ = try readLine()
                return body
            }
            body += try readExactly(size)
            _ = try readLine()
        }
    }

    private func readToEnd() throws -> [UInt8] {
        do {
            while true { try fill() }
        } catch let failure as Failure where failure.description == "connection closed" {
            defer { buffered.removeAll() }
            return buffered
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw Failure(description: "connection closed") }
        if count < 0 { throw Failure(description: errno == EAGAIN ? "timed out" : "recv failed: errno \(errno)") }
        buffered += chunk[..<count]
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffered.count >= needle.count else { return nil }
        for start in 0...(buffered.count - needle.count) where buffered[start] == needle[0] {
            if Array(buffered[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }

    /// Percent-encodes a form name or value (spaces as `+`).
    public static func formEncode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                encoded += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
