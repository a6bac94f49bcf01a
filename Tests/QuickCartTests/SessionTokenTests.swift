@testable import QuickCart
import Testing

@Suite("Session tokens")
struct SessionTokenTests {
    private let key = HMACKey(Array("a secret of the shop".utf8))

    @Test("A token of an empty start reads back with it; the mark cannot be added, removed or forged")
    func emptyStartIsSigned() throws {
        let plain = SessionToken.issue(at: 1_000)
        let empty = SessionToken.issue(at: 1_000, startsEmpty: true)
        let plainValue = plain.cookieValue(key: key), emptyValue = empty.cookieValue(key: key)
        #expect(SessionToken(cookieValue: plainValue, key: key) == plain)
        #expect(try #require(SessionToken(cookieValue: emptyValue, key: key)).startsEmpty)
        #expect(!(try #require(SessionToken(cookieValue: plainValue, key: key)).startsEmpty))
        // Moving the mark from one cookie to the other breaks its signature.
        #expect(SessionToken(cookieValue: plainValue + ".e", key: key) == nil)
        #expect(SessionToken(cookieValue: String(emptyValue.dropLast(2)), key: key) == nil)
        #expect(SessionToken(cookieValue: emptyValue, key: HMACKey(Array("another secret".utf8))) == nil)
    }

    @Test("The token a first change rotates to is an ordinary one, however the session started")
    func rotationDropsTheMark() {
        let empty = SessionToken.issue(at: 1_000, startsEmpty: true)
        #expect(!empty.rotated(key: key, at: 1_001).startsEmpty)
    }
}
