/// An ordered list of header fields with case-insensitive lookup by name.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Cache-Control", "no-store")
/// headers["cache-control"] // "no-store"
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field. A struct rather than a tuple: an array of tuples of strings is
    /// destroyed through the runtime's generic tuple code, field by field, on every request.
    public struct Field: Sendable {
        /// The field's name, as sent (names compare case-insensitively).
        public var name: String
        /// The field's value.
        public var value: String

        /// A field named `name` with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates an empty header list with room for `minimumCapacity` fields.
    init(minimumCapacity: Int) {
        fields = []
        fields.reserveCapacity(minimumCapacity)
    }

    /// Creates a header list from name-value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        // Room for the fields most answers gather on the way out (cookies, caching, security
        // headers), so appending them does not regrow the list field by field.
        fields = []
        fields.reserveCapacity(elements.count + Self.roomToAdd)
        for element in elements {
            fields.append(Field(name: element.0, value: element.1))
        }
    }

    private static let roomToAdd = 11

    /// The value of the first field named `name` (compared case-insensitively); setting replaces
    /// every field of that name, and setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value }
        set {
            // Removing rewrites the list even when nothing matches; most names are new.
            if contains(name) { fields.removeAll { $0.name.equalsIgnoringASCIICase(name) } }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Appends a field, keeping any of the same name (as `Set-Cookie` needs).
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Sets each of `other`'s fields, in its order: a field of the same name here is replaced
    /// (all of them), as the subscript's setter does, and the others are kept.
    public mutating func set(_ other: HTTPHeaders) {
        // Mostly no name is shared: then the fields are appended at once, with no pass per name
        // rewriting the list.
        let sharesAName = fields.contains { field in other.fields.contains { $0.name.equalsIgnoringASCIICase(field.name) } }
        guard sharesAName else { return fields.append(contentsOf: other.fields) }
        for field in other.fields {
            self[field.name] = nil
        }
        fields.append(contentsOf: other.fields)
    }

    /// Every value of the fields named `name`, in order.
    public func values(named name: String) -> [String] {
        // One pass and one array: filtering first would build a second.
        var values: [String] = []
        for field in fields where field.name.equalsIgnoringASCIICase(name) {
            values.append(field.value)
        }
        return values
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Whether both have the same fields, in the same order, names compared exactly.
    func hasSameFields(as other: HTTPHeaders) -> Bool {
        fields.count == other.fields.count
            && zip(fields, other.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Calls `body` with the fields in order, in place.
    func withFields<Result>(_ body: (UnsafeBufferPointer<Field>) throws -> Result) rethrows -> Result {
        try fields.withUnsafeBufferPointer(body)
    }

    /// The fields in order, repeated names included.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension String {
    /// ASCII case-insensitive equality, as HTTP field names and tokens compare.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        // Most names compared differ in length: that check stays small enough to inline
        // wherever names are compared, and the letters are compared out of line, as bytes.
        utf8.count == other.utf8.count && Self.hasSameLettersIgnoringASCIICase(self, other)
    }

    @inline(never)
    private static func hasSameLettersIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        let sameLetter = { (a: UInt8, b: UInt8) in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
        let contiguous = lhs.utf8.withContiguousStorageIfAvailable { lhs in
            rhs.utf8.withContiguousStorageIfAvailable { rhs in
                zip(lhs, rhs).allSatisfy(sameLetter)
            }
        }
        if let contiguous, let contiguous { return contiguous }
        return zip(lhs.utf8, rhs.utf8).allSatisfy(sameLetter)
    }
}
