/// A limit on text a shopper types, counted two ways: in characters, as a person counts them,
/// and in UTF-8 bytes, as storage, logs and headers count them.
///
/// One character may carry any number of combining marks ("a" with 9,000 accents is one
/// character of 18,001 bytes), so a limit in characters alone bounds nothing; the bytes do.
///
/// ```swift
/// let limit = TextLimit(characters: 40, bytes: 160)
/// limit.admits("Ada")                                   // true
/// limit.admits("a" + String(repeating: "\u{301}", count: 9_000))  // false
/// ```
public struct TextLimit: Sendable, Equatable {
    /// The most characters (extended grapheme clusters).
    public let characters: Int
    /// The most UTF-8 bytes.
    public let bytes: Int

    public init(characters: Int, bytes: Int) {
        self.characters = characters
        self.bytes = bytes
    }

    /// Whether `text` is within both limits.
    public func admits(_ text: String) -> Bool {
        // Bytes first: counting characters walks the text, and the byte limit bounds that walk.
        text.utf8.count <= bytes && text.count <= characters
    }
}
