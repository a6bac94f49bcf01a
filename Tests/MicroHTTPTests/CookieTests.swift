import MicroHTTP
import Testing

/// The `Set-Cookie` value a cookie renders, attribute by attribute.
@Suite struct CookieTests {
    @Test("Every attribute appears in order, and only when set", arguments: [
        (Cookie(name: "sid", value: "abc"), "sid=abc; Path=/; HttpOnly; SameSite=Lax"),
        (Cookie(name: "sid", value: "abc", path: nil, httpOnly: false, sameSite: nil), "sid=abc"),
        (Cookie(name: "n", value: "Added%20Tent%20%E2%80%94%202", path: "/", maxAge: 60, secure: true),
         "n=Added%20Tent%20%E2%80%94%202; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax"),
        (Cookie(name: "n", value: "", path: "/shop", maxAge: 0, httpOnly: false, sameSite: .strict), "n=; Path=/shop; Max-Age=0; SameSite=Strict"),
        (Cookie(name: "x", value: "y", maxAge: -1, sameSite: Cookie.SameSite.none), "x=y; Path=/; Max-Age=-1; HttpOnly; SameSite=None"),
        (Cookie(name: "long", value: String(repeating: "v", count: 3000), maxAge: Int.max),
         "long=\(String(repeating: "v", count: 3000)); Path=/; Max-Age=\(Int.max); HttpOnly; SameSite=Lax"),
    ])
    func headerValue(cookie: Cookie, expected: String) {
        #expect(cookie.headerValue == expected)
    }
}
