/// What one press of "Place order" meant: a shopper places at most one order per intent, so a
/// double click, two tabs, a retry after a time-out or two devices sending the same intent get
/// the one order its first arrival placed.
///
/// The web's intent is the cart version the Review page showed (two tabs showing one cart send
/// the same one; any change of the cart makes a new one); a native client's is the
/// `Idempotency-Key` it sends. The two never collide: each is kept under its own prefix.
///
/// ```swift
/// let intent = OrderIntent.review(cartVersion: 7)               // "review:7"
/// let retried = OrderIntent(idempotencyKey: "5b0c…")            // "key:5b0c…", nil when unfit
/// ```
public struct OrderIntent: Hashable, Sendable, CustomStringConvertible {
    /// The stored text: unique per shopper among its orders.
    public let key: String

    private init(key: String) {
        self.key = key
    }

    /// The intent of a Review page that showed the cart at `cartVersion`.
    public static func review(cartVersion: Int64) -> OrderIntent {
        OrderIntent(key: "review:" + String(cartVersion))
    }

    /// A client's own key for one placing: 1 to ``maximumKeyLength`` visible ASCII characters
    /// (`!` to `~`); `nil` for anything else.
    public init?(idempotencyKey: String) {
        let bytes = idempotencyKey.utf8
        guard (1...Self.maximumKeyLength).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        key = Self.keyPrefix + idempotencyKey
    }

    /// Whether this is a client's `Idempotency-Key`, not a Review page's cart version.
    public var isIdempotencyKey: Bool { key.hasPrefix(Self.keyPrefix) }

    private static let keyPrefix = "key:"

    /// The longest client key taken, in characters.
    public static let maximumKeyLength = 255

    public var description: String { key }
}
