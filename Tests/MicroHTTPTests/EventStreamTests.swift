import Dispatch
import Foundation
import HTTPTesting
import MicroHTTP
import Synchronization
import Testing

/// Streams opened through the test router, so tests can publish to them.
final class StreamRegistry: Sendable {
    let streams = Mutex<[EventStream]>([])

    func router() -> Router {
        var router = Router()
        router.get("/events") { [self] _ in
            let stream = EventStream()
            stream.send(ServerSentEvent(event: "hello", data: "0", retry: 1000))
            streams.withLock { $0.append(stream) }
            return Response(headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"], body: .eventStream(stream))
        }
        router.get("/") { _ in .text("ok") }
        return router
    }

    func broadcast(_ event: ServerSentEvent) {
        for stream in streams.withLock({ $0 }) { stream.send(event) }
    }
}

@Suite struct EventStreamTests {
    @Test func deliversEventsSentFromAnotherThread() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router())
        let client = try TestEventStreamClient(port: live.port)
        #expect(client.status == 200)
        #expect(client.contentType == "text/event-stream")
        #expect(try client.next() == .init(event: "hello", data: "0", id: nil))
        #expect(client.retry == 1000)

        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            registry.broadcast(ServerSentEvent(event: "badge", data: "two\nlines", id: "7"))
        }
        #expect(try client.next() == .init(event: "badge", data: "two\nlines", id: "7"))
        // The connection still serves ordinary requests from other clients meanwhile.
        #expect(try live.client().get("/").status == 200)
    }

    @Test func holdsAThousandStreamsAndReachesEachOne() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router())
        var clients: [TestEventStreamClient] = []
        for _ in 0..<1000 {
            let client = try TestEventStreamClient(port: live.port, timeout: 20)
            _ = try client.next()
            clients.append(client)
        }
        #expect(live.server.openEventStreamCount == 1000)
        registry.broadcast(ServerSentEvent(event: "badge", data: "5"))
        var received = 0
        for client in clients where try client.next() == .init(event: "badge", data: "5", id: nil) {
            received += 1
        }
        #expect(received == 1000)
    }

    @Test func heartbeatReapsClientsThatVanished() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router()) { $0.heartbeatInterval = 0.1 }
        var clients: [TestEventStreamClient] = []
        for _ in 0..<20 {
            let client = try TestEventStreamClient(port: live.port)
            _ = try client.next()
            clients.append(client)
        }
        #expect(live.server.openEventStreamCount == 20)
        for client in clients.prefix(10) { client.connection.disconnect() }
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while live.server.openEventStreamCount > 10, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(20_000)
        }
        #expect(live.server.openEventStreamCount == 10)
        // The ones still there get keep-alive comments and events.
        registry.broadcast(ServerSentEvent(event: "badge", data: "1"))
        for client in clients.suffix(10) {
            #expect(try client.next().data == "1")
            #expect(client.comments.contains("keep-alive"))
        }
    }

    @Test func stopEndsOpenStreamsPromptly() throws {
        let registry = StreamRegistry()
        let server = Server(configuration: .init(port: 0, threadCount: 2), responder: registry.router())
        try server.start()
        let clients = try (0..<50).map { _ in try TestEventStreamClient(port: server.port) }
        for client in clients { _ = try client.next() }
        let started = DispatchTime.now().uptimeNanoseconds
        server.stop()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        #expect(seconds < 2, "stop took \(seconds) s")
        for client in clients {
            #expect(throws: TestHTTPClient.Failure.self) { try client.next() }
        }
        #expect(server.openEventStreamCount == 0)
    }
}
