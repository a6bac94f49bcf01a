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

    /// `count` streams opened on `live`, each past its first event (`hello`).
    private static func helloStreams(_ count: Int, on live: LiveServer) throws -> [TestEventStreamClient] {
        let clients = try (0..<count).map { _ in try TestEventStreamClient(port: live.port) }
        for client in clients { #expect(try client.next().event == "hello") }
        return clients
    }

    @Test func pastTheGlobalCapStreamsGet503WithRetryAfterUntilOneCloses() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router()) { configuration in
            configuration.maximumEventStreams = 3
            configuration.maximumEventStreamsPerClient = 0
        }
        var clients = try Self.helloStreams(3, on: live)

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

    @Test("A stream's place is free as soon as its client closes: at the per-address cap, close one, open one at once → 200")
    func aClosedStreamsPlaceIsFreeAtOnce() throws {
        let registry = StreamRegistry()
        // Heartbeats a minute apart: nothing but the close itself can free the place in time.
        let live = try LiveServer(registry.router()) { configuration in
            configuration.maximumEventStreamsPerClient = 3
            configuration.heartbeatInterval = 60
        }
        var clients = try Self.helloStreams(3, on: live)
        #expect(try live.client().request("GET", "/events").status == 503, "the cap holds")
        for _ in 0..<3 {
            clients.removeFirst().connection.disconnect()
            let next = try TestEventStreamClient(port: live.port)
            #expect(next.status == 200, "the closed stream's place was still held")
            #expect(try next.next().event == "hello")
            clients.append(next)
        }
        #expect(live.server.openEventStreamCount == 3)
        #expect(try live.client().request("GET", "/events").status == 503, "open streams still count")
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

    @Test("The per-address stream cap counts an IPv6 address by its /64; IPv4 addresses each on their own")
    func perClientCapCountsIPv6ByItsSlash64() throws {
        let registry = StreamRegistry()
        let live = try LiveServer(registry.router()) { configuration in
            configuration.maximumEventStreamsPerClient = 2
            configuration.trustedProxies = ["127.0.0.1"]
        }
        func open(as client: String) throws -> TestEventStreamClient {
            try TestEventStreamClient(port: live.port, headers: [("X-Forwarded-For", client)])
        }
        let held = try [open(as: "2001:db8:1:2::1"), open(as: "2001:db8:1:2:ffff:ffff:ffff:ffff")]
        for client in held { #expect(client.status == 200) }
        #expect(try live.client().request("GET", "/events", headers: [("X-Forwarded-For", "2001:db8:1:2:abcd::9")]).status == 503,
                "a third address of the same /64 is the same client")
        #expect(try open(as: "2001:db8:1:3::1").status == 200, "the next /64 is another client")
        #expect(try open(as: "198.51.100.7").status == 200)
        #expect(try open(as: "198.51.100.8").status == 200)
    }

    @Test("Addresses are counted as an IPv4 address whole and an IPv6 address by its /64", arguments: [
        ("192.0.2.7", "192.0.2.7"), ("::ffff:192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"), ("2001:DB8:1:2:ffff::1", "2001:db8:1:2::/64"), ("[2001:db8:1:2::5]:443", "2001:db8:1:2::/64"),
        ("::1", "::/64"), ("fe80::1:2:3:4", "fe80::/64"), ("not an address", "not an address"),
    ])
    func limitKeys(address: String, key: String) {
        #expect(IPAddress.limitKey(of: address) == key)
    }

    @Test("The accept policy's address, read as bytes from its sockaddr, counts as its text would", arguments: [
        ("192.0.2.7", "192.0.2.7"), ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff"), ("::ffff:192.0.2.7", "192.0.2.7"),
        ("::1", "::2"), ("fe80::1:2:3:4", "fe80::9"),
    ])
    func socketAddressKeys(address: String, sameClient: String) {
        func key(_ text: String) -> IPAddress? {
            var storage = sockaddr_storage()
            return withUnsafeMutableBytes(of: &storage) { raw in
                let socket = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
                if text.contains(":") {
                    let v6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                    v6.pointee.sin6_family = sa_family_t(AF_INET6)
                    guard inet_pton(AF_INET6, text, &v6.pointee.sin6_addr) == 1 else { return nil }
                } else {
                    let v4 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                    v4.pointee.sin_family = sa_family_t(AF_INET)
                    guard inet_pton(AF_INET, text, &v4.pointee.sin_addr) == 1 else { return nil }
                }
                return IPAddress(socketAddress: UnsafePointer(socket))?.limitKey
            }
        }
        #expect(key(address) != nil)
        #expect(key(address) == IPAddress(address)?.limitKey)
        #expect(key(address) == key(sameClient))
        #expect(key(address) != key("198.51.100.1"))
        #expect(key(address) != key("2001:db8:9::1"))
    }

    @Test("Past the per-address connection limit a connection is refused unread; closing one makes room")
    func perAddressConnectionLimit() throws {
        var router = Router()
        router.get("/") { _ in .text("ok") }
        let live = try LiveServer(router) { $0.connectionsPerIPLimit = 2 }
        var held = try (0..<2).map { _ in try live.client() }
        for client in held { #expect(try client.get("/").status == 200, "keep-alive connections within the limit") }
        let refused = try live.client(timeout: 2)
        #expect(throws: TestHTTPClient.Failure.self) { try refused.get("/") }
        held.removeFirst().disconnect()
        // Each try is kept while it is looked at: a try dropped at once might still count.
        var admitted: TestHTTPClient?
        let deadline = Date().addingTimeInterval(5)
        while admitted == nil, Date() < deadline {
            let client = try live.client(timeout: 2)
            if (try? client.get("/").status) == 200 { admitted = client } else { usleep(10_000) }
        }
        #expect(admitted != nil, "a closed connection makes room")
        #expect(try held[0].get("/").status == 200)
        #expect(throws: TestHTTPClient.Failure.self, "the limit holds again") { try live.client(timeout: 2).get("/") }
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
