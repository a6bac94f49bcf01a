/// Text made once and shown on many pages (a product's name, an icon's markup), kept with its
/// UTF-8 and its HTML-escaped UTF-8, so a page copies bytes rather than escaping them again.
///
/// A `.text` field of this type prints the escaped bytes for `{{name}}` and the plain ones
/// for `{{{name}}}`, exactly as it would the string.
///
/// ```swift
/// let name = MustacheText("Tea & cake")
/// name.string   // "Tea & cake"
/// ```
public final class MustacheText: Sendable {
    /// The text.
    public let string: String
    /// The UTF-8, plain and escaped: one allocation, owned here and never changed, so
    /// printing reads it in place with no reference counting (an array would be retained).
    @usableFromInline nonisolated(unsafe) let raw: UnsafeBufferPointer<UInt8>
    @usableFromInline nonisolated(unsafe) let escaped: UnsafeBufferPointer<UInt8>

    /// Keeps `string` with its UTF-8, plain and escaped.
    ///
    /// - Parameter string: The text, as a template would print it from a string.
    public init(_ string: String) {
        self.string = string
        let text = string
        var string = string
        let (raw, escaped) = string.withUTF8 { source -> (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) in
            // Most text has nothing to escape: then both are the same bytes.
            if MustacheOutput.firstToEscape(in: source.baseAddress, count: source.count, from: 0) == source.count {
                let bytes = Self.copy(source)
                return (bytes, bytes)
            }
            var output = MustacheOutput(capacity: source.count + 16)
            output.append(escaping: text)
            let escaped = output.finish()
            return (Self.copy(source), escaped.withUnsafeBufferPointer(Self.copy))
        }
        self.raw = raw
        self.escaped = escaped
    }

    deinit {
        if escaped.baseAddress != raw.baseAddress { escaped.deallocate() }
        raw.deallocate()
    }

    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        if let source = bytes.baseAddress { copy.baseAddress!.initialize(from: source, count: bytes.count) }
        return UnsafeBufferPointer(rebasing: copy[0..<bytes.count])
    }
}

/// Text made for one page and printed many times on it (a form token, the page's address):
/// checked once for characters HTML escaping replaces, and then, when it has none (as such
/// text mostly has not), copied as it is rather than scanned again at every tag. A struct, so
/// making one allocates nothing.
///
/// ```swift
/// let token = MustacheCheckedText("3f9a…")
/// token.string   // "3f9a…"
/// ```
public struct MustacheCheckedText: Sendable {
    /// The text.
    public let string: String
    /// Whether escaping leaves it as it is.
    @usableFromInline let isPlain: Bool

    /// Keeps `string`, noting whether it has anything to escape.
    ///
    /// - Parameter string: The text, as a template would print it from a string.
    public init(_ string: String) {
        var string = string
        isPlain = string.withUTF8 { MustacheOutput.firstToEscape(in: $0.baseAddress, count: $0.count, from: 0) == $0.count }
        self.string = string
    }
}
