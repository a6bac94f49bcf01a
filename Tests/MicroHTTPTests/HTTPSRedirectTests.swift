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

    @Test("The path and query are kept, encoded again; the host is the request's, its port the HTTPS one")
    func keepsTheAddress() {
        let request = Request(method: .post, path: "/search/a b", query: ["q": "tent & stove"], headers: ["Host": "shop.example:80"])
        #expect(location(request) == "https://shop.example:8443/search/a%20b?q=tent%20%26%20stove")
        #expect(location(Request(method: .get, path: "/", headers: ["Host": "[2001:db8::1]:80"])) == "https://[2001:db8::1]:8443/")
        let standard = HTTPSRedirect(httpsPort: { 443 }, fallbackHost: "127.0.0.1")
        #expect(standard.respond(to: Request(method: .get, path: "/cart", headers: ["Host": "shop.example"])).headers["Location"]
            == "https://shop.example/cart", "port 443 is left out")
    }

    @Test("A Host that is not a plain name or address gets the listener's own host", arguments: [
        "evil.example/path", "a b", "shop.example@evil.example", "", "[::1", "x\u{202E}y",
    ])
    func hostileHost(host: String) {
        #expect(location(Request(method: .get, path: "/cart", headers: ["Host": host])) == "https://[::1]:8443/cart")
    }
}
