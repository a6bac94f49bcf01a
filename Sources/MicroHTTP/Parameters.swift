/// Decoded name-value pairs from a query string or a submitted form, in the order sent.
///
/// A name may occur more than once; the subscript answers the first occurrence.
/// ```swift
/// let query = request.query["q"] ?? ""
/// ```
public struct Parameters: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One decoded pair.
    public typealias Pair = (name: String, value: String)

    private var pairs: [Pair]

    /// Creates parameters from decoded pairs, in order.
    public init(_ pairs: [Pair] = []) {
        self.pairs = pairs
    }

    /// Creates parameters from a literal, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value sent under `name`, or `nil`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value sent under `name`, in order.
    public func values(named name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// How many pairs were sent.
    public var count: Int { pairs.count }

    /// Whether nothing was sent.
    public var isEmpty: Bool { pairs.isEmpty }

    /// The pairs in the order sent.
    public func makeIterator() -> IndexingIterator<[Pair]> {
        pairs.makeIterator()
    }
}
