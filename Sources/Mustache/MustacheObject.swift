/// The hash of a ``MustacheValue/object(_:)``: names and values, looked up by name.
///
/// View-model hashes are small (a handful to a few dozen names) and are built once per
/// render, so they are kept as one array of entries in insertion order and searched from the
/// front: each name carries a fingerprint (its length and first and last bytes), so passing
/// over a name costs one integer comparison where a `Dictionary` would hash the whole name,
/// and one array costs one allocation where a `Dictionary` costs a hash table.
///
/// ```swift
/// var product: MustacheObject = ["name": "Tea", "price": "3.50"]
/// product["inCart"] = 2
/// product["name"]     // .string("Tea")
/// ```
public struct MustacheObject: Sendable {
    /// One name and its value.
    public typealias Entry = (key: String, value: MustacheValue)

    private var entries: [(key: Name, value: MustacheValue)]

    /// Creates an empty hash.
    public init() {
        entries = []
    }

    /// Creates a hash with the entries of `dictionary`.
    public init(_ dictionary: [String: MustacheValue]) {
        entries = dictionary.map { (key: Name($0.key), value: $0.value) }
    }

    /// The number of names.
    public var count: Int { entries.count }

    /// The value for `key`, or `nil`. Setting a value replaces the old one; setting `nil`
    /// removes the name.
    public subscript(key: String) -> MustacheValue? {
        get { self[Name(key)] }
        set { self[Name(key)] = newValue }
    }

    /// The value for a name whose fingerprint is already known, as template tags' are.
    subscript(key: Name) -> MustacheValue? {
        get {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case let (index?, value?): entries[index].value = value
            case let (index?, nil): entries.remove(at: index)
            case let (nil, value?): entries.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// A name with its fingerprint, computed once: by the parser for a template's tags, on
    /// insertion for a hash's names.
    struct Name: Sendable, Equatable {
        let text: String
        /// Length, first byte and last byte; equal names have equal fingerprints.
        private let fingerprint: UInt64

        init(_ text: String) {
            var text = text
            fingerprint = text.withUTF8 { bytes in
                guard let first = bytes.first, let last = bytes.last else { return 0 }
                return UInt64(bytes.count) << 16 | UInt64(first) << 8 | UInt64(last)
            }
            self.text = text
        }

        @inline(__always)
        static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.fingerprint == rhs.fingerprint && lhs.text == rhs.text
        }
    }
}

extension MustacheObject: ExpressibleByDictionaryLiteral {
    /// Creates a hash from a dictionary literal. A repeated key keeps its last value rather
    /// than trapping.
    ///
    /// - Parameter elements: The key–value pairs of the hash.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        entries = []
        entries.reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }
}

extension MustacheObject: Sequence {
    /// The entries in the order they were first set.
    public func makeIterator() -> some IteratorProtocol<Entry> {
        entries.lazy.map { (key: $0.key.text, value: $0.value) }.makeIterator()
    }
}

extension MustacheObject: Equatable {
    /// Equal when both have the same names with equal values, in any order, as hashes are.
    public static func == (lhs: MustacheObject, rhs: MustacheObject) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { entry in rhs[entry.key] == entry.value }
    }
}
