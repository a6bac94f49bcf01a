import Dispatch
import Foundation
import HTTPTesting
@testable import MicroHTTP
import Synchronization
import Testing

/// Limits on event streams, and the client address they count by.
@Suite struct EventStreamLimitTests {
    /// Waits up to five seconds for `condition`.
    private static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition(), Date() < deadline { usleep(10_000) }
        return condition()
    }

    @Test func pastTheGlobalCapStreamsGet503WithRetryAfterUntilOneCloses() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router()) { configuration in
            configuration.maximumEventStreams = 3
            configuration.maximumEventStreamsPerClient = 0
        }
        var clients = try (0..<3).map { _ in try TestEventStreamClient(port: live.port) }
        for client in clients { #expect(try client.next().event == "hello") }

        let refused = try live.client().request("GET", "/events")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "10")
        #expect(live.server.openEventStreamCount == 3)
        #expect(try live.client().get("/").status == 200, "pages are still served")

        clients.removeFirst().connection.disconnect()
        #expect(Self.eventually { live.server.openEventStreamCount == 2 }, "the heartbeat or the close frees the place")
        let again = try TestEventStreamClient(port: live.port)
        #expect(again.status == 200)
    }

    @Test func aRefusedStreamIsOverAtOnceForWhoeverHoldsIt() throws {
        let closed = Mutex(0)
        var router = Router()
        router.get("/events") { _ in
            let stream = EventStream()
            stream.onClose { closed.withLock { $0 += 1 } }
            return Response(headers: ["Content-Type": "text/event-stream"], body: .eventStream(stream))
        }
        let live = try LiveServer(router) { $0.maximumEventStreams = 1 }
        let first = try TestEventStreamClient(port: live.port)
        #expect(first.status == 200)
        #expect(try live.client().request("GET", "/events").status == 503)
        #expect(closed.withLock { $0 } == 1, "the refused stream's close handlers ran")
    }

    @Test func perClientCapCountsTheAddressATrustedProxyNames() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router()) { configuration in
            configuration.maximumEventStreamsPerClient = 2
            configuration.trustedProxies = ["127.0.0.1"]
        }
        func open(as client: String) throws -> TestEventStreamClient {
            try TestEventStreamClient(port: live.port, headers: [("X-Forwarded-For", "\(client), 127.0.0.1")])
        }
        let held = try [open(as: "198.51.100.7"), open(as: "198.51.100.7")]
        for client in held { #expect(client.status == 200) }
        let third = try live.client().request("GET", "/events", headers: [("X-Forwarded-For", "198.51.100.7")])
        #expect(third.status == 503)
        #expect(third.header("Retry-After") != nil)
        #expect(try open(as: "198.51.100.8").status == 200, "another shopper behind the same proxy is not locked out")
    }

    @Test func streamsEndCleanlyAfterTheirLifetime() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router()) { configuration in
            configuration.maximumEventStreamLifetime = 0.3
            configuration.heartbeatInterval = 0.1
        }
        let client = try TestEventStreamClient(port: live.port, timeout: 5)
        #expect(try client.next().event == "hello")
        let started = Date()
        // The stream ends with the chunked body's last chunk: a clean end the browser reconnects after.
        let end = #expect(throws: TestHTTPClient.Failure.self) { while true { _ = try client.next() } }
        #expect(end?.description == "stream ended")
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(Self.eventually { live.server.openEventStreamCount == 0 })
        #expect(try TestEventStreamClient(port: live.port).status == 200, "a new stream opens as usual")
    }

    @Test func theClientAddressComesFromXForwardedForOnlyThroughATrustedProxy() throws {
        var router = Router()
        router.get("/") { request in .text(request.remoteAddress) }
        let trusting = try LiveServer(router) { $0.trustedProxies = ["10.0.0.9", "127.0.0.1"] }
        func address(_ live: LiveServer, _ forwardedFor: [String]) throws -> String {
            try live.client().get("/", headers: forwardedFor.map { ("X-Forwarded-For", $0) }).text
        }
        #expect(try address(trusting, []) == "127.0.0.1")
        #expect(try address(trusting, ["203.0.113.5"]) == "203.0.113.5")
        #expect(try address(trusting, ["1.1.1.1, 203.0.113.5, 10.0.0.9"]) == "203.0.113.5", "the right-most untrusted entry")
        #expect(try address(trusting, ["1.1.1.1", "203.0.113.5"]) == "203.0.113.5", "several fields read as one list")
        #expect(try address(trusting, ["2001:db8::1"]) == "2001:db8::1")
        #expect(try address(trusting, ["not-an-address"]) == "127.0.0.1")

        let untrusting = try LiveServer(router)
        #expect(try address(untrusting, ["203.0.113.5"]) == "127.0.0.1", "a client cannot name itself")
        #expect(throws: Server.StartError.self) {
            try LiveServer(router) { $0.trustedProxies = ["proxy.example"] }
        }
    }

    @Test(arguments: [
        ("192.0.2.7", ["198.51.100.1"], "192.0.2.7"),
        ("10.0.0.1", ["198.51.100.1"], "198.51.100.1"),
        ("::ffff:10.0.0.1", ["198.51.100.1"], "198.51.100.1"),
        ("10.0.0.1", ["198.51.100.1:5123"], "198.51.100.1"),
        ("10.0.0.1", ["[2001:db8::7]:443, 10.0.0.2"], "2001:db8::7"),
        ("10.0.0.1", ["10.0.0.2, 10.0.0.1"], "10.0.0.2"),
        ("10.0.0.1", [" 198.51.100.1 ,garbage"], "10.0.0.1"),
        ("10.0.0.1", [], "10.0.0.1"),
    ])
    func resolvesTheClientAddress(peer: String, forwardedFor: [String], expected: String) throws {
        let proxies = try TrustedProxies(["10.0.0.1", "10.0.0.2"])
        #expect(proxies.clientAddress(peer: peer, forwardedFor: forwardedFor) == expected)
    }
}
