/// The cookies a request carries, in the order they came. A name may come more than once; the
/// subscript finds the first.
///
/// A list, not a dictionary: a request carries a cookie or two, and hashing them into a
/// dictionary on every request costs more than walking them on the few reads a handler makes.
/// Duplicates are kept rather than weeded out as they arrive, so a header of thousands of
/// cookies costs one pass to read, not one per cookie.
public struct Cookies: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One cookie: its name and value as sent.
    public typealias Element = (name: String, value: String)

    private var pairs: [Element] = []

    /// No cookies.
    public init() {}

    /// The cookies of a literal, in its order: `["sid": "abc"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the first cookie named `name`, or `nil`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Adds a cookie after the others.
    public mutating func append(name: String, value: String) {
        pairs.append((name: name, value: value))
    }

    /// The cookies in the order they came.
    public func makeIterator() -> IndexingIterator<[Element]> {
        pairs.makeIterator()
    }
}
