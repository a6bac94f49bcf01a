import MicroHTTP
import Testing

@Suite struct HTTPHeadersTests {
    private func pairs(_ headers: HTTPHeaders) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }

    @Test func aLiteralKeepsItsOrderAndGrowsPastItsOwnFields() {
        var headers: HTTPHeaders = ["Content-Type": "text/html", "X-One": "1"]
        for index in 0..<20 { headers.add("X-Added", "\(index)") }
        #expect(pairs(headers).prefix(3) == ["Content-Type: text/html", "X-One: 1", "X-Added: 0"])
        #expect(headers.values(named: "x-added") == (0..<20).map { "\($0)" })
    }

    @Test func settingReplacesEveryFieldOfTheNameAndAppendsNewNames() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1", "Content-Type": "text/plain"]
        headers.add("set-cookie", "b=2")
        headers["SET-COOKIE"] = "c=3"
        #expect(pairs(headers) == ["Content-Type: text/plain", "SET-COOKIE: c=3"])
        headers["Cache-Control"] = "no-store"
        #expect(pairs(headers) == ["Content-Type: text/plain", "SET-COOKIE: c=3", "Cache-Control: no-store"])
        headers["content-type"] = nil
        headers["X-Absent"] = nil
        #expect(pairs(headers) == ["SET-COOKIE: c=3", "Cache-Control: no-store"])
        #expect(headers["cache-control"] == "no-store")
        #expect(headers.values(named: "Missing").isEmpty)
    }

    @Test func settingAListReplacesItsNamesAndKeepsTheRest() {
        var headers: HTTPHeaders = ["Content-Type": "text/html", "x-frame-options": "SAMEORIGIN", "X-Frame-Options": "ALLOW"]
        headers.set(["X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"])
        #expect(pairs(headers) == ["Content-Type: text/html", "X-Frame-Options: DENY", "Referrer-Policy: same-origin"])
        var fresh: HTTPHeaders = ["Content-Type": "text/html"]
        fresh.set(["X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"])
        #expect(pairs(fresh) == ["Content-Type: text/html", "X-Frame-Options: DENY", "Referrer-Policy: same-origin"])
    }
}
