/// One press of a cart-change form, as the page script names it: a fresh random key per press
/// (`change`, 16 random bytes in base64url). The key is kept on the cart line the change wrote,
/// and a post carrying the key its line holds changes nothing: a browser resends a post whose
/// answer was lost with the connection, and that resend must not count as a second press.
///
/// ```swift
/// ChangeKey("Qk9Pb0ZaXzEtMnczNHE5")  // a key
/// ChangeKey("short")                 // nil: too short
/// ```
public struct ChangeKey: Hashable, Sendable {
    /// The key as posted and stored.
    public let text: String

    /// A posted key: ``lengths`` characters of `A`–`Z`, `a`–`z`, `0`–`9`, `_` and `-`; `nil`
    /// for anything else.
    public init?(_ text: String) {
        let bytes = text.utf8
        guard Self.lengths.contains(bytes.count), bytes.allSatisfy(Self.isKeyCharacter) else { return nil }
        self.text = text
    }

    /// How long a key may be, in characters.
    public static let lengths = 16...64

    private static func isKeyCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
