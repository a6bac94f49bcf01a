@testable import QuickCart
import Testing

/// Picking the one session cookie out of a request's `Cookie` fields.
@Suite("Session cookie fields") struct SessionCookieTests {
    static let name = "quickcart_session"

    @Test("One cookie of the name, in any field, gives its value without blanks; none or two give nil")
    func oneOrNothing() {
        #expect(SessionCookie.soleValue(named: Self.name, in: ["a=1; \tquickcart_session = v.1.x \t;b=2"]) == "v.1.x")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["a=1", "quickcart_session=v"]) == "v")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=v;quickcart_session=v"]) == nil)
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=v", "quickcart_session=w"]) == nil)
        #expect(SessionCookie.soleValue(named: Self.name, in: ["Quickcart_session=v; quickcart_session; quickcart_sessionx=v"]) == nil)
        #expect(SessionCookie.soleValue(named: Self.name, in: []) == nil)
    }

    // Found by the cookie-fields fuzz target: Character comparisons take U+037E GREEK QUESTION
    // MARK for `;`, so the value was cut there, and a combining mark hid a `;` or `=`.
    @Test("Separators are the ASCII bytes alone: look-alikes and combining marks neither cut nor hide one")
    func separatorsAreBytes() {
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=a\u{37E}b"]) == "a\u{37E}b")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=v;\u{301}x=2"]) == "v")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=\u{301}v"]) == "\u{301}v")
        #expect(SessionCookie.soleValue(named: "K", in: ["\u{212A}=kelvin"]) == nil)
    }

    @Test("Empty fields and pairs, pairs without `=`, blanks only, and text after the first `=` are read as the rule says")
    func edgesOfTheRule() {
        #expect(SessionCookie.soleValue(named: Self.name, in: ["", ";;", " ; quickcart_session"]) == nil)
        #expect(SessionCookie.soleValue(named: Self.name, in: [";quickcart_session=a=b;"]) == "a=b")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=  \t "]) == "")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["\tquickcart_session\t=\tv"]) == "v")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session =v", "x=1;quickcart_session= w"]) == nil)
        #expect(SessionCookie.soleValue(named: "", in: ["=v"]) == "v")
        #expect(SessionCookie.soleValue(named: "é", in: ["e\u{301}=1; é=2"]) == "2")
        #expect(SessionCookie.soleValue(named: Self.name, in: ["quickcart_session=日本 ;x=é"]) == "日本")
    }
}
