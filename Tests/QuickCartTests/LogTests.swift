import Foundation
import HTTPTesting
import MicroHTTP
@testable import QuickCart
import Synchronization
import Testing

extension ShopTests {
    /// The access log and the operator's lines: printable whatever a client sends.
    @Suite("Logs")
    struct LogTests {
        /// What a log line may hold: printable characters, and one line break at its end.
        private static func isOneClean(_ line: String) -> Bool {
            guard line.hasSuffix("\n") else { return false }
            return line.dropLast().unicodeScalars.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned: false
                default: true
                }
            }
        }

        @Test("A method with an escape sequence, sent raw to a real server, reaches the access log escaped")
        func hostileMethodIsEscaped() throws {
            let server = try LoggedServer()
            defer { server.stop() }
            let client = try TestHTTPClient(port: server.port)
            _ = try client.request("G\u{1b}[31mET", "/")
            let written = server.wait(for: 1)
            let line = try #require(written.first)
            #expect(!line.contains("\u{1b}"), "the escape sequence reached the log: \(line.debugDescription)")
            #expect(line.hasPrefix(#"127.0.0.1 G\x1B[31mET / "#), "\(line.debugDescription)")
            #expect(Self.isOneClean(line))
        }

        @Test("An answer that was not sent is logged as such: a header larger than the connection's memory, a client gone before a large body was out")
        func unsentAnswersAreLoggedAsSuch() throws {
            let large = Array(repeating: UInt8(ascii: "x"), count: 64 << 20)
            let server = try LoggedServer { router in
                router.get("/huge-header") { _ in
                    Response(headers: ["X-Padding": String(repeating: "p", count: 64 * 1024)], body: .bytes(Array("hi".utf8)))
                }
                router.get("/large") { _ in Response(headers: ["Content-Type": "application/octet-stream"], body: .bytes(large)) }
            }
            defer { server.stop() }

            #expect(try TestHTTPClient(port: server.port).get("/").status == 200)
            let normal = server.wait(for: 1)
            #expect(normal.count == 1 && normal.first?.hasPrefix("127.0.0.1 GET / 200 11B ") == true, "\(normal)")

            // libmicrohttpd builds the header in the connection's 24 KiB and cannot: it closes.
            let client = try TestHTTPClient(port: server.port)
            #expect((try? client.get("/huge-header")) == nil, "a header larger than the connection's memory cannot arrive")
            let afterHeader = server.wait(for: 2)
            #expect(afterHeader.count == 2 && afterHeader.last?.hasPrefix("127.0.0.1 GET /huge-header 200!unsent 2B ") == true, "\(afterHeader)")

            // 64 MiB cannot all wait in the sockets' buffers: the client leaving cuts it short.
            do {
                let leaving = try TestHTTPClient(port: server.port)
                try leaving.send("GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = try leaving.readHead()
            } // Closed with unread bytes, the socket resets the connection.
            let afterLeaving = server.wait(for: 3)
            #expect(afterLeaving.count == 3 && afterLeaving.last?.hasPrefix("127.0.0.1 GET /large 200!unsent \(64 << 20)B ") == true, "\(afterLeaving)")
            #expect(afterLeaving.allSatisfy(Self.isOneClean))
        }

        @Test("The session tag comes from the __Host- session cookie too, as --secure-cookies names it")
        func sessionTagFromTheHostOnlyCookie() throws {
            let server = try LoggedServer()
            defer { server.stop() }
            for name in [SessionManager.hostOnlyCookieName, SessionManager.cookieName] {
                _ = try TestHTTPClient(port: server.port).get("/", headers: [("Cookie", "\(name)=abc.0123456789abcdef")])
            }
            let written = server.wait(for: 2)
            #expect(written.count == 2)
            for line in written { #expect(line.hasSuffix(" s=0123456789\n"), "\(line.debugDescription)") }
        }

        @Test("An event stream is logged when it ends; a refused one once, as the 503 the client got")
        func streamsAreLoggedWhenTheyEnd() throws {
            let configuration = Server.Configuration(host: "127.0.0.1", port: 0, threadCount: 1, heartbeatInterval: 0.1, maximumEventStreams: 1)
            let server = try LoggedServer(configuration) { router in
                router.get("/events") { _ in
                    let stream = EventStream()
                    stream.send(ServerSentEvent(event: "badge", data: "0"))
                    return Response(headers: ["Content-Type": "text/event-stream"], body: .eventStream(stream))
                }
            }
            defer { server.stop() }
            let open = try TestEventStreamClient(port: server.port)
            #expect(open.status == 200)
            #expect(server.lines.values.isEmpty, "an open stream is not logged yet")
            #expect(try TestHTTPClient(port: server.port).request("GET", "/events").status == 503)
            let refusal = server.wait(for: 1)
            #expect(refusal.count == 1 && refusal.first?.hasPrefix("127.0.0.1 GET /events 503 ") == true, "\(refusal)")
            #expect(refusal.first?.contains(" stream ") == false)
            open.connection.disconnect()
            #expect(server.wait(for: 2).last?.hasPrefix("127.0.0.1 GET /events 200 stream ") == true)
        }

        @Test("Every access-log field is printable and the line keeps its seven fields", arguments: [
            ("GET", "/missing\n200 forged"),
            ("GET", "/a\r\nGET /admin 200 1B 0.01ms s=-"),
            ("G\u{1b}[31mET", "/"),
            ("GET", "/search\u{202E}gpj.exe"),
            ("GET", "/tab\there/space here\u{2028}next\u{85}"),
            ("GET", "/\u{0}\u{7f}\\x41"),
            ("PO ST", "/" + String(repeating: "\u{301}", count: 500)),
            ("GET\u{0D4E}", "\u{301}/accents-fuse-with-the-space-before\u{0D4E}"),
        ])
        func accessLogFieldsArePrintable(method: String, path: String) throws {
            let line = LogLine.access(client: "", method: method, path: path, status: 404, bodyBytes: 12, microseconds: 1234, session: "-")
            #expect(Self.isOneClean(line), "\(line.debugDescription)")
            #expect(line.dropLast().split(separator: " ", omittingEmptySubsequences: false).count == 7, "\(line.debugDescription)")
            #expect(line.hasSuffix(" 404 12B 1.23ms s=-\n"))
        }

        @Test("Plain fields are written as they are; a backslash is doubled so escapes cannot be faked")
        func plainFieldsStayPlain() {
            #expect(LogLine.access(client: "", method: "GET", path: "/cart", status: 200, bodyBytes: 7125, microseconds: 842, session: "3fa2c1d09b")
                == "- GET /cart 200 7125B 0.84ms s=3fa2c1d09b\n")
            #expect(LogLine.access(client: "", method: "GET", path: "/events", status: 200, bodyBytes: nil, microseconds: 5, session: "-")
                == "- GET /events 200 stream 0.00ms s=-\n")
            #expect(LogLine.access(client: "203.0.113.7", method: "GET", path: "/", status: 200, bodyBytes: 1, microseconds: 1, session: "-")
                == "203.0.113.7 GET / 200 1B 0.00ms s=-\n")
            #expect(LogLine.access(client: "-", method: "GET", path: "/", status: 200, bodyBytes: 1, microseconds: 1, session: "-", sent: false)
                == "- GET / 200!unsent 1B 0.00ms s=-\n")
            #expect(LogLine.printable(#"/a\x0A"#, limit: 100) == #"/a\\x0A"#)
            #expect(LogLine.printable("/été/日本", limit: 100) == "/été/日本")
            #expect(LogLine.printable(String(repeating: "a", count: 300), limit: 200) == String(repeating: "a", count: 200) + "…")
        }

        @Test("Error lines quote decoded paths and error descriptions, and stay one printable line")
        func errorLinesArePrintable() {
            let request = Request(method: .get, path: "/cart/items/1\nquickcart: error: forged\u{1b}[2J/quantity")
            let line = Log.line("\(request.method) \(request.path) failed: boom\r\n", isError: true)
            #expect(Self.isOneClean(line), "\(line.debugDescription)")
            #expect(line.hasPrefix("quickcart: error: GET /cart/items/1\\x0Aquickcart: error: forged\\x1B[2J/quantity failed: boom\\x0D\\x0A"))
            #expect(Log.line("purged 3 expired sessions") == "quickcart: purged 3 expired sessions\n")
        }

        // MARK: - BufferedLog

        @Test("Access-log lines reach their file in order: when 16 KiB have gathered, and on flush")
        func bufferedLogWritesInOrder() throws {
            let pipe = try LogPipe()
            let log = BufferedLog(descriptor: pipe.writeEnd)
            let line = String(repeating: "x", count: 99) + "\n"
            for _ in 0..<100 { log.write(line) }
            Thread.sleep(forTimeInterval: 0.05)
            #expect(pipe.available == 0, "100 short lines stay gathered")
            for _ in 0..<64 { log.write(line) }
            // The 164th line passed 16 KiB: the lines are written soon, off the writing thread.
            let deadline = Date().addingTimeInterval(5)
            while pipe.available < 164 * 100, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            #expect(pipe.available == 164 * 100)
            for _ in 0..<36 { log.write(line) }
            Thread.sleep(forTimeInterval: 0.05)
            #expect(pipe.available == 164 * 100, "the next lines wait again")
            log.write("last\n")
            log.flush()
            #expect(pipe.readAll(closingWriteEnd: true) == Array((String(repeating: line, count: 200) + "last\n").utf8))
        }

        @Test("An operator's line is written promptly without a flush, and never by the thread that logs it")
        func promptLinesAreWrittenSoonOffTheCallingThread() throws {
            let pipe = try LogPipe()
            let log = BufferedLog(descriptor: pipe.writeEnd, capacity: 64 * 1024, name: "log")
            log.write("quickcart: error: storage unavailable\n", promptly: true)
            let deadline = Date().addingTimeInterval(5)
            while pipe.available == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            #expect(pipe.available == 38, "the error line was not written without a flush")

            // Nobody reads the pipe any more: a storage outage's line per request must not block.
            let line = "quickcart: error: GET /cart: storage unavailable: disk I/O error\n"
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for _ in 0..<20_000 { log.write(line, promptly: true) }
                finished.signal()
            }
            #expect(finished.wait(timeout: .now() + 20) == .success, "logging blocked on a pipe nobody reads")
            #expect(log.droppedLineCount > 0)
            // A thread of its own reads, so it starts at once however busy Dispatch's threads
            // are with other tests; the flush may take long under a sanitizer.
            let received = Mutex<[UInt8]>([])
            let readAll = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                received.withLock { $0 = pipe.readAll(closingWriteEnd: false) }
                readAll.signal()
            }
            log.flush(timeout: 60)
            close(pipe.writeEnd)
            readAll.wait()
            let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
            // The report follows the batch its drops happened before; lines taken in once the
            // pipe drained may come after it (a busy sanitizer run), so it is not always last.
            let report = text.split(separator: "\n").first { $0.hasPrefix("quickcart: log: ") && $0.hasSuffix(" lines dropped while the log was not taking them") }
            #expect(report != nil, "\(text.suffix(200))")
        }

        @Test("A log nobody reads holds up no request: lines are dropped and counted, then reported")
        func stalledLogDropsLinesWithoutBlocking() throws {
            let pipe = try LogPipe()
            let log = BufferedLog(descriptor: pipe.writeEnd, capacity: 256 * 1024)
            let line = String(repeating: "y", count: 99) + "\n"
            let lines = 20_000 // 2 MB: thirty times what the pipe holds
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for _ in 0..<lines { log.write(line) }
                finished.signal()
            }
            let returned = finished.wait(timeout: .now() + 20) == .success
            #expect(returned, "writing lines blocked on a pipe nobody reads")
            #expect(log.droppedLineCount > 0)
            // Someone reads again: everything kept arrives, then the count of lines dropped.
            let reader = DispatchQueue(label: "reader")
            let received = Mutex<[UInt8]>([])
            reader.async { received.withLock { $0 = pipe.readAll(closingWriteEnd: false) } }
            log.flush(timeout: 10)
            close(pipe.writeEnd)
            reader.sync {}
            let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
            let kept = text.split(separator: "\n").filter { $0 == line.dropLast() }.count
            #expect(kept + log.droppedLineCount == lines || !returned)
            // Drops are reported after the lines kept around them; when the writer fell behind
            // more than once, there is one report per stretch, and together they count every drop.
            let prefix = "quickcart: access log: ", suffix = " lines dropped while the log was not taking them"
            let reports = text.split(separator: "\n").filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
            let reported = reports.compactMap { Int($0.dropFirst(prefix.count).dropLast(suffix.count)) }.reduce(0, +)
            #expect(reported == log.droppedLineCount, "\(reports)")
            #expect(text.hasSuffix(suffix + "\n"), "the last stretch's drops are reported after its lines")
        }
    }
}

/// A real server on a free loopback port whose router writes its access log to ``lines``,
/// serving `/` (a small page) and the routes the test adds.
private final class LoggedServer {
    let lines: Recorder<String>
    private let server: Server

    init(_ configuration: Server.Configuration = .init(host: "127.0.0.1", port: 0, threadCount: 1), routes: (inout Router) -> Void = { _ in }) throws {
        let lines = Recorder<String>()
        self.lines = lines
        var router = Router()
        router.add(middleware: AccessLog(write: { lines.append($0) }))
        router.get("/") { _ in .html("<p>home</p>") }
        routes(&router)
        server = Server(configuration: configuration, responder: router)
        try server.start()
    }

    var port: Int { server.port }

    func stop() {
        server.stop()
    }

    /// The lines once `count` have been written (the server writes one when it is done
    /// with a request, which may be just after the client read the answer), or after 5 s.
    func wait(for count: Int) -> [String] {
        lines.wait { $0.count >= count }
        return lines.values
    }
}

/// Both ends of a pipe, for reading what a log writes.
private final class LogPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
    }

    /// Bytes waiting in the pipe.
    var available: Int32 {
        var count: Int32 = 0
        _ = ioctl(readEnd, UInt(FIONREAD), &count)
        return count
    }

    /// Reads until the write end is closed (by the caller, or here first).
    func readAll(closingWriteEnd: Bool) -> [UInt8] {
        if closingWriteEnd { close(writeEnd) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(readEnd, &chunk, chunk.count)
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return received
    }
}
