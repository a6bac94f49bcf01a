/// The bearer token of a native app's client (`POST /api/v1/clients`): 160 random bits, when
/// it was issued, the device name the app gave, and a signature, as base64url.
///
/// Like the session cookie it is signed rather than stored: a client costs no storage until its
/// first change stores it (with a new shopper) under the SHA-256 of its id, so the database
/// never holds a token, and an app that only reads is gone once its token's idle lifetime has
/// passed since it was issued, as a browser's unstored session is. The device name travels in
/// the token because nothing is stored for it before that first change.
struct APIToken: Equatable {
    /// 40 hex digits of random bytes.
    let id: String
    let issuedAt: Int64
    /// What the app called its device ("iPhone"), at most ``deviceMaxLength`` code points; may be empty.
    let device: String

    /// The most Unicode code points a device name may have (as the document's `maxLength`
    /// counts): at four UTF-8 bytes each at most, its length fits the token's one byte.
    static let deviceMaxLength = 60

    private static let version: UInt8 = 1
    private static let idBytes = 20
    private static let signatureBytes = 16

    /// A new token with a fresh random id.
    static func issue(device: String, at now: Int64) -> APIToken {
        APIToken(id: Hex.encode(SecureRandom.bytes(count: idBytes)), issuedAt: now, device: device)
    }

    /// The token as the app sends it, signed with `key`.
    func text(key: HMACKey) -> String {
        var bytes: [UInt8] = [Self.version]
        bytes += Hex.decode(id) ?? []
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: issuedAt >> Int64(shift))) }
        let name = Array(device.utf8)
        bytes.append(UInt8(name.count))
        bytes += name
        bytes += Self.signature(of: bytes, key: key)
        return Base64URL.encode(bytes)
    }

    /// Reads a token; `nil` unless it is well formed and its signature is right.
    init?(text: some StringProtocol, key: HMACKey) {
        // The longest token: version, id, time, length, 240 bytes of name, signature.
        guard text.utf8.count <= 400, let bytes = Base64URL.decode(text) else { return nil }
        let fixed = 1 + Self.idBytes + 8 + 1
        guard bytes.count >= fixed + Self.signatureBytes, bytes[0] == Self.version else { return nil }
        let nameCount = Int(bytes[fixed - 1])
        guard bytes.count == fixed + nameCount + Self.signatureBytes else { return nil }
        let signed = Array(bytes[..<(fixed + nameCount)])
        guard ConstantTime.equals(bytes: Array(bytes[(fixed + nameCount)...]), Self.signature(of: signed, key: key)) else { return nil }
        let issuedAt = bytes[(1 + Self.idBytes)..<(fixed - 1)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard issuedAt >= 0, let device = String(validating: bytes[fixed..<(fixed + nameCount)], as: UTF8.self) else { return nil }
        self.init(id: Hex.encode(Array(bytes[1...Self.idBytes])), issuedAt: issuedAt, device: device)
    }

    private init(id: String, issuedAt: Int64, device: String) {
        self.id = id
        self.issuedAt = issuedAt
        self.device = device
    }

    private static func signature(of bytes: [UInt8], key: HMACKey) -> [UInt8] {
        Array(key.authenticate(Array("api-token|".utf8) + bytes).prefix(signatureBytes))
    }

    /// What Profile's devices list calls an app's client: "QuickCart app on iPhone".
    static func deviceName(_ device: String) -> String {
        device.isEmpty ? "QuickCart app" : "QuickCart app on " + device
    }
}
