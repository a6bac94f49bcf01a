/// A type that can be handed to a template as its data.
///
/// View models adopt it by describing themselves as a ``MustacheValue``;
/// the standard scalar and collection types already conform.
///
/// ```swift
/// struct ProductRow: MustacheConvertible {
///     var name: String
///     var priceCents: Int
///     var mustacheValue: MustacheValue {
///         ["name": .string(name), "price": .int(priceCents)]
///     }
/// }
/// ```
public protocol MustacheConvertible {
    /// This value as template data.
    ///
    /// ```swift
    /// 42.mustacheValue          // .int(42)
    /// ```
    ///
    /// - Returns: The ``MustacheValue`` a template renders for this value.
    var mustacheValue: MustacheValue { get }
}

extension MustacheValue: MustacheConvertible {
    /// The value itself.
    ///
    /// ```swift
    /// MustacheValue.int(1).mustacheValue   // .int(1)
    /// ```
    ///
    /// - Returns: `self`.
    public var mustacheValue: MustacheValue { self }
}

extension String: MustacheConvertible {
    /// The string as `.string`.
    ///
    /// ```swift
    /// "Joe".mustacheValue       // .string("Joe")
    /// ```
    ///
    /// - Returns: `.string(self)`.
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Substring: MustacheConvertible {
    /// The substring copied into a `.string`.
    ///
    /// ```swift
    /// "Joe Smith".split(separator: " ")[0].mustacheValue   // .string("Joe")
    /// ```
    ///
    /// - Returns: `.string(String(self))`.
    public var mustacheValue: MustacheValue { .string(String(self)) }
}

extension Int: MustacheConvertible {
    /// The integer as `.int`.
    ///
    /// ```swift
    /// 85.mustacheValue          // .int(85)
    /// ```
    ///
    /// - Returns: `.int(self)`.
    public var mustacheValue: MustacheValue { .int(self) }
}

extension Int64: MustacheConvertible {
    /// The integer as `.int`, or as `.double` where `Int` is too narrow.
    ///
    /// ```swift
    /// Int64(85).mustacheValue   // .int(85)
    /// ```
    ///
    /// - Returns: `.int` when the value fits in `Int`, otherwise `.double`.
    public var mustacheValue: MustacheValue {
        Int(exactly: self).map(MustacheValue.int) ?? .double(Double(self))
    }
}

extension Double: MustacheConvertible {
    /// The number as `.double`.
    ///
    /// ```swift
    /// 1.21.mustacheValue        // .double(1.21)
    /// ```
    ///
    /// - Returns: `.double(self)`.
    public var mustacheValue: MustacheValue { .double(self) }
}

extension Bool: MustacheConvertible {
    /// The boolean as `.bool`.
    ///
    /// ```swift
    /// true.mustacheValue        // .bool(true)
    /// ```
    ///
    /// - Returns: `.bool(self)`.
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Optional: MustacheConvertible where Wrapped: MustacheConvertible {
    /// The wrapped value's representation, or `.null` for `nil`.
    ///
    /// ```swift
    /// Optional<String>.none.mustacheValue   // .null
    /// ```
    ///
    /// - Returns: `.null` when `nil`, otherwise the wrapped value's ``MustacheValue``.
    public var mustacheValue: MustacheValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.mustacheValue
        }
    }
}

extension Array: MustacheConvertible where Element: MustacheConvertible {
    /// The elements as `.array`.
    ///
    /// ```swift
    /// ["a", "b"].mustacheValue  // .array([.string("a"), .string("b")])
    /// ```
    ///
    /// - Returns: `.array` of each element's ``MustacheValue``.
    public var mustacheValue: MustacheValue { .array(map(\.mustacheValue)) }
}

extension Dictionary: MustacheConvertible where Key == String, Value: MustacheConvertible {
    /// The entries as `.object`.
    ///
    /// ```swift
    /// ["name": "Joe"].mustacheValue   // .object(["name": .string("Joe")])
    /// ```
    ///
    /// - Returns: `.object` of each value's ``MustacheValue``, keyed as before.
    public var mustacheValue: MustacheValue { .object(MustacheObject(mapValues(\.mustacheValue))) }
}
