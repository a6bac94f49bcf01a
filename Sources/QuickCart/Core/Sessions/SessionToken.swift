/// The value of the session cookie: a random id, when it was issued, and a signature.
///
/// `id.issuedAt.signature`, where the id is 160 bits from a CSPRNG and the signature an
/// HMAC-SHA-256 under the shop's secret; `id.issuedAt.signature.e` for a session that starts
/// with an empty cart (the signature covers that too). The signature lets the server trust a session that it
/// has not stored yet (sessions are stored only when they first change something), and turns
/// any forged or altered cookie into a fresh session.
struct SessionToken: Equatable {
    let id: String
    let issuedAt: Int64
    /// Whether the session starts with an empty cart rather than the shop's starter cart: the
    /// one a browser is given when it is signed out, which must not come back with anything.
    /// It travels in the cookie, as a session costs no storage until its first change.
    let startsEmpty: Bool

    /// A new token with a fresh random id.
    static func issue(at now: Int64, startsEmpty: Bool = false) -> SessionToken {
        SessionToken(id: Hex.encode(SecureRandom.bytes(count: 20)), issuedAt: now, startsEmpty: startsEmpty)
    }

    /// The token a session of this token moves to when it is first stored (against session
    /// fixation): 160 bits of an HMAC of the id, so nobody without the secret can tell it from
    /// this token, while requests of this token racing to store the session all reach the same one.
    func rotated(key: HMACKey, at now: Int64) -> SessionToken {
        // The rotated token's client is stored, cart and all: how it started no longer matters.
        SessionToken(id: Hex.encode(Array(key.authenticate("rotate|\(id)".utf8).prefix(20))), issuedAt: now, startsEmpty: false)
    }

    /// The cookie value, signed with `key`.
    func cookieValue(key: HMACKey) -> String {
        "\(id).\(issuedAt).\(Self.signature(id: id, issuedAt: issuedAt, startsEmpty: startsEmpty, key: key))" + (startsEmpty ? Self.emptyMark : "")
    }

    private static let emptyMark = ".e"

    /// Reads a cookie value; `nil` unless it is well formed and its signature is right.
    init?(cookieValue: String, key: HMACKey) {
        let startsEmpty = cookieValue.utf8.count > 2 && cookieValue.utf8.suffix(2).elementsEqual(Self.emptyMark.utf8)
        let cookieValue = startsEmpty ? String(cookieValue.dropLast(2)) : cookieValue
        // Read on every request: find the two dots in the UTF-8 view rather than splitting.
        let bytes = cookieValue.utf8
        guard let firstDot = bytes.firstIndex(of: UInt8(ascii: ".")),
              let secondDot = bytes[bytes.index(after: firstDot)...].firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let id = String(cookieValue[..<firstDot])
        let signature = String(cookieValue[cookieValue.index(after: secondDot)...])
        guard id.utf8.count == 40, Hex.decode(id) != nil,
              let issuedAt = Int64(cookieValue[cookieValue.index(after: firstDot)..<secondDot]), issuedAt >= 0,
              // One spelling per token ("+17…" or "017…" would be the same token under new names).
              String(issuedAt) == cookieValue[cookieValue.index(after: firstDot)..<secondDot],
              ConstantTime.equals(signature, Self.signature(id: id, issuedAt: issuedAt, startsEmpty: startsEmpty, key: key)) else { return nil }
        self.init(id: id, issuedAt: issuedAt, startsEmpty: startsEmpty)
    }

    private init(id: String, issuedAt: Int64, startsEmpty: Bool) {
        self.id = id
        self.issuedAt = issuedAt
        self.startsEmpty = startsEmpty
    }

    private static func signature(id: String, issuedAt: Int64, startsEmpty: Bool, key: HMACKey) -> String {
        Hex.encode(Array(key.authenticate("session|\(id)|\(issuedAt)\(startsEmpty ? "|empty" : "")".utf8).prefix(16)))
    }
}
