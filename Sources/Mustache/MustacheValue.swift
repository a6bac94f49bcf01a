/// A value that a template can render: the data model of the engine.
///
/// Mirrors JSON, so any view model, decoded document or literal maps onto it.
/// Truthiness follows the Mustache spec: `.null`, `.bool(false)` and an empty
/// `.array` are falsy; everything else, including `""` and `0`, is truthy.
///
/// ```swift
/// let value: MustacheValue = [
///     "title": "Cart",
///     "items": [["name": "Tea", "price": 3.5], ["name": "Cake", "price": 4]],
///     "empty": false,
/// ]
/// ```
public enum MustacheValue: Sendable, Equatable {
    /// No value. Falsy; interpolates as the empty string.
    ///
    /// ```swift
    /// let missing: MustacheValue = nil   // .null
    /// ```
    case null

    /// A boolean. `false` is falsy; interpolates as `true` or `false`.
    ///
    /// ```swift
    /// let flag: MustacheValue = true     // .bool(true)
    /// ```
    case bool(Bool)

    /// An integer. Always truthy (even `0`); interpolates in decimal.
    ///
    /// ```swift
    /// let count: MustacheValue = 85      // renders "85"
    /// ```
    case int(Int)

    /// A floating-point number. Always truthy; integral values interpolate
    /// without a fraction (`2.0` → `2`), others in shortest form (`1.21` → `1.21`).
    ///
    /// ```swift
    /// let power: MustacheValue = 1.21    // renders "1.21"
    /// ```
    case double(Double)

    /// A string. Truthy even when empty, as the spec requires.
    ///
    /// ```swift
    /// let name: MustacheValue = "Joe"
    /// ```
    case string(String)

    /// A list. Sections render once per element; an empty list is falsy.
    /// Interpolates as the empty string.
    ///
    /// ```swift
    /// let list: MustacheValue = [1, 2, 3]
    /// ```
    case array([MustacheValue])

    /// A hash whose keys tag names look up. Sections push it onto the context
    /// stack. Interpolates as the empty string.
    ///
    /// ```swift
    /// let person: MustacheValue = ["name": "Joe"]
    /// ```
    case object(MustacheObject)
}

extension MustacheValue {
    /// Whether a section renders for this value (`{{#name}}`) or its inverse
    /// does (`{{^name}}`).
    ///
    /// ```swift
    /// MustacheValue.array([]).isTruthy     // false
    /// MustacheValue.string("").isTruthy    // true
    /// ```
    ///
    /// - Returns: `false` for `.null`, `.bool(false)` and an empty `.array`;
    ///   `true` otherwise.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let flag): flag
        case .array(let items): !items.isEmpty
        case .int, .double, .string, .object: true
        }
    }
}

extension MustacheValue:
    ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringInterpolation, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates `.null` from `nil`.
    ///
    /// ```swift
    /// let value: MustacheValue = nil
    /// ```
    ///
    /// - Parameter nilLiteral: The `nil` literal.
    public init(nilLiteral: ()) {
        self = .null
    }

    /// Creates `.bool` from `true` or `false`.
    ///
    /// ```swift
    /// let value: MustacheValue = true
    /// ```
    ///
    /// - Parameter value: The boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// Creates `.int` from an integer literal.
    ///
    /// ```swift
    /// let value: MustacheValue = 42
    /// ```
    ///
    /// - Parameter value: The integer literal.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }

    /// Creates `.double` from a floating-point literal.
    ///
    /// ```swift
    /// let value: MustacheValue = 1.21
    /// ```
    ///
    /// - Parameter value: The floating-point literal.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }

    /// Creates `.string` from a string literal; interpolated literals work too.
    ///
    /// ```swift
    /// let value: MustacheValue = "Hello, \(name)!"
    /// ```
    ///
    /// - Parameter value: The string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// Creates `.array` from an array literal.
    ///
    /// ```swift
    /// let value: MustacheValue = ["a", 1, true]
    /// ```
    ///
    /// - Parameter elements: The elements of the list.
    public init(arrayLiteral elements: MustacheValue...) {
        self = .array(elements)
    }

    /// Creates `.object` from a dictionary literal. A repeated key keeps its
    /// last value rather than trapping.
    ///
    /// ```swift
    /// let value: MustacheValue = ["name": "Joe", "age": 42]
    /// ```
    ///
    /// - Parameter elements: The key–value pairs of the hash.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        var object = MustacheObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
