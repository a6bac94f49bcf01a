import HTTPTesting
import MicroHTTP
import Testing

/// The plain-HTTP listener's answer: 308 to the same address over HTTPS, for any request.
@Suite struct HTTPSRedirectTests {
    let redirect = HTTPSRedirect(httpsPort: { 8443 }, fallbackHost: "::1")

    func location(_ request: Request) -> String? {
        let response = redirect.respond(to: request)
        #expect(response.status.code == 308)
        return response.headers["Location"]
    }

    @Test("The path and query are the target as sent, byte for byte; the host is the request's, its port the HTTPS one", arguments: [
        "/a%2Fb/c", "/search?q", "/x?a=1&&b=2", "/x?%ff=1", "/%ff", "/x?a=%zz", "/search/a%20b?q=tent%20%26%20stove", "/?", "//evil.example/x", "/caf%C3%A9#top",
    ])
    func keepsTheTarget(target: String) {
        #expect(location(Request(method: .post, path: "/ignored", target: target, headers: ["Host": "shop.example:80"])) == "https://shop.example:8443" + target)
    }

    @Test("The host is the request's, in brackets for IPv6, and port 443 is left out")
    func keepsTheHost() {
        #expect(location(Request(method: .get, path: "/", target: "/", headers: ["Host": "[2001:db8::1]:80"])) == "https://[2001:db8::1]:8443/")
        let standard = HTTPSRedirect(httpsPort: { 443 }, fallbackHost: "127.0.0.1")
        #expect(standard.respond(to: Request(method: .get, path: "/cart", target: "/cart", headers: ["Host": "shop.example"])).headers["Location"]
            == "https://shop.example/cart", "port 443 is left out")
    }

    @Test("An absolute address redirects to its path and query", arguments: [
        ("http://shop.example/x?a=1", "/x?a=1"), ("HTTP://shop.example", "/"), ("http://shop.example?q", "/?q"),
    ])
    func absoluteTargets(target: String, pathAndQuery: String) {
        #expect(location(Request(method: .get, path: "/", target: target, headers: ["Host": "shop.example"])) == "https://shop.example:8443" + pathAndQuery)
    }

    @Test("A target with a space or control byte, or that is neither a path nor an absolute address, gets 400 and no Location", arguments: [
        "/a b", "/a\r\nSet-Cookie: x=1", "/a\u{7F}", "/a\tb", "cart", "shop.example:443", "http://user@evil.example/", "", "*", "ftp://shop.example/x",
    ])
    func unsafeTargets(target: String) {
        let response = redirect.respond(to: Request(method: .get, path: "/", target: target, headers: ["Host": "shop.example"]))
        #expect(response.status.code == 400)
        #expect(response.headers["Location"] == nil)
    }

    @Test("A Host that is not a plain name or address gets the listener's own host", arguments: [
        "evil.example/path", "a b", "shop.example@evil.example", "", "[::1", "x\u{202E}y",
    ])
    func hostileHost(host: String) {
        #expect(location(Request(method: .get, path: "/cart", target: "/cart", headers: ["Host": host])) == "https://[::1]:8443/cart")
    }

    @Test("Without a usable Host, a listener on a wildcard address names no host: 400")
    func wildcardListener() {
        for wildcard in ["0.0.0.0", "::"] {
            let redirect = HTTPSRedirect(httpsPort: { 443 }, fallbackHost: wildcard)
            let lost = redirect.respond(to: Request(method: .get, path: "/cart", target: "/cart"))
            #expect(lost.status.code == 400 && lost.headers["Location"] == nil)
            let named = redirect.respond(to: Request(method: .get, path: "/cart", target: "/cart", headers: ["Host": "shop.example"]))
            #expect(named.status.code == 308 && named.headers["Location"] == "https://shop.example/cart")
        }
    }

    @Test("A request the server refused still keeps its target and host, but two Hosts are not trusted")
    func refusedRequests() {
        let request = Request(method: .get, path: "/", target: "/x?a=%zz", headers: ["Host": "shop.example"])
        let malformed = redirect.respond(to: HTTPError(.badRequest, reason: .malformedAddress), for: request)
        #expect(malformed.status.code == 308 && malformed.headers["Location"] == "https://shop.example:8443/x?a=%zz")
        let twoHosts = redirect.respond(to: HTTPError(.badRequest, reason: .repeatedHost), for: request)
        #expect(twoHosts.status.code == 308 && twoHosts.headers["Location"] == "https://[::1]:8443/x?a=%zz")
    }

    @Test("Through a real server, the Location holds the raw target as the client sent it")
    func liveRedirects() throws {
        let server = Server(
            configuration: Server.Configuration(host: "127.0.0.1", port: 0, threadCount: 1),
            responder: HTTPSRedirect(httpsPort: { 443 }, fallbackHost: "0.0.0.0")
        )
        try server.start()
        defer { server.stop() }
        let redirects: [(head: String, location: String)] = [
            ("GET /a%2Fb/c HTTP/1.1\r\nHost: shop.example\r\n\r\n", "https://shop.example/a%2Fb/c"),
            ("POST /x?a=1&&b=2&q HTTP/1.1\r\nHost: shop.example:80\r\nContent-Length: 0\r\n\r\n", "https://shop.example/x?a=1&&b=2&q"),
            ("GET /%ff?%ff=1 HTTP/1.1\r\nHost: shop.example\r\n\r\n", "https://shop.example/%ff?%ff=1"),
            ("GET /x?a=%zz HTTP/1.1\r\nHost: shop.example\r\n\r\n", "https://shop.example/x?a=%zz"),
            ("GET /caf\u{E9} HTTP/1.1\r\nHost: shop.example\r\n\r\n", "https://shop.example/caf%C3%A9"),
            // An absolute target names the host, whatever Host says (RFC 9112 §3.2.2).
            ("GET http://shop.example/y?b HTTP/1.1\r\nHost: other.example\r\n\r\n", "https://shop.example/y?b"),
            ("GET http://evil.example/x HTTP/1.1\r\nHost: shop.example\r\n\r\n", "https://evil.example/x"),
        ]
        for (head, expected) in redirects {
            let client = try TestHTTPClient(port: server.port)
            try client.send(head)
            let response = try client.readResponse()
            #expect(response.status == 308 && response.header("Location") == expected, "\(head.debugDescription): \(response.status) \(response.header("Location") ?? "-")")
        }
        let refusals = [
            "GET /a\u{1}b HTTP/1.1\r\nHost: shop.example\r\n\r\n",
            "GET /a\u{0}/b HTTP/1.1\r\nHost: shop.example\r\n\r\n",
            "GET /cart HTTP/1.0\r\n\r\n",
            "GET * HTTP/1.1\r\nHost: shop.example\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\nHost: shop.example\r\n\r\n",
        ]
        for head in refusals {
            let client = try TestHTTPClient(port: server.port)
            try client.send(head)
            let response = try client.readResponse()
            #expect(response.status == 400 && response.header("Location") == nil, "\(head.debugDescription): \(response.status)")
        }
    }
}
