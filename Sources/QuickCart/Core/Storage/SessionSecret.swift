/// The secret that signs session cookies, as every backend stores it: hex in the `settings`
/// table under ``settingKey``, made once when storage is first created. The backends keep
/// only the SQL that reads and writes the row.
enum SessionSecret {
    /// The `settings` row's key.
    static let settingKey = "session-secret"
    /// The bytes a new secret has; a stored one must have at least as many.
    static let byteCount = 32

    /// A new secret's text, to store when none is.
    static func make() -> String {
        Hex.encode(SecureRandom.bytes(count: byteCount))
    }

    /// The stored text as the secret.
    /// - Throws: ``Missing`` when there is none, or it is not hex of at least ``byteCount`` bytes.
    static func decode(_ stored: String?) throws(Missing) -> [UInt8] {
        guard let stored, let secret = Hex.decode(stored), secret.count >= byteCount else { throw Missing() }
        return secret
    }

    /// Storage holds no usable secret: the shop cannot sign or read a cookie, so it does not start.
    struct Missing: Error, CustomStringConvertible {
        var description: String { "the session secret is missing from the settings table" }
    }
}
