/// A typed view: a Swift value whose fields a template names, bound once when the template
/// is compiled (``MustacheViewTemplate``) rather than looked up by name on every render.
///
/// A view lists the fields templates may use, each with how to read it from the value. A
/// template naming any other field, or using a field in a way its type does not allow (a
/// section over a string, printing a list), fails to compile, naming the file, line and field.
///
/// ```swift
/// struct Row: MustacheView {
///     var name: String
///     var quantity: Int
///     var canDecrease: Bool { quantity > 1 }
///
///     static let mustacheFields: MustacheFields<Row> = [
///         "name": .text(\.name),
///         "quantity": .int(\.quantity),
///         "canDecrease": .bool(\.canDecrease),
///     ]
/// }
/// ```
///
/// Every view is also ``MustacheConvertible``: the same fields as a ``MustacheValue``, so the
/// dynamic renderer can render it too (a cross-check of the compiled form).
public protocol MustacheView: MustacheConvertible, SendableMetatype {
    /// The fields templates may name, by name. Read when a template is compiled, not per render.
    static var mustacheFields: MustacheFields<Self> { get }
}

extension MustacheView {
    /// The view as dynamic template data: each field as the ``MustacheValue`` it prints as.
    ///
    /// ```swift
    /// Row(name: "Tea", quantity: 2).mustacheValue   // ["name": "Tea", "quantity": 2, "canDecrease": true]
    /// ```
    public var mustacheValue: MustacheValue {
        withUnsafePointer(to: self) { Self.mustacheFields.erased.value(of: UnsafeRawPointer($0)) }
    }
}

/// The fields of a ``MustacheView``, written as a dictionary literal of ``MustacheField``s.
///
/// ```swift
/// static let mustacheFields: MustacheFields<Row> = ["name": .text(\.name)]
/// ```
public struct MustacheFields<View>: Sendable, ExpressibleByDictionaryLiteral {
    @usableFromInline let erased: ViewFields

    /// Creates the field list. A repeated name keeps its last field.
    ///
    /// - Parameter elements: Names and fields.
    public init(dictionaryLiteral elements: (String, MustacheField<View>)...) {
        var fields: [(name: String, field: ErasedField)] = []
        for (name, field) in elements {
            fields.removeAll { $0.name == name }
            fields.append((name, field.erased))
        }
        erased = ViewFields(typeName: String(describing: View.self), fields: fields)
    }
}

/// How a template reads one field of a view, and what the template may do with it.
///
/// | field | `{{name}}` prints | `{{#name}}` renders | `{{^name}}` renders |
/// | --- | --- | --- | --- |
/// | `.text` (a `String` or ``MustacheText``) | the text, escaped unless `{{{name}}}` | — | — |
/// | `.int` | the number | — | — |
/// | `.custom` | what it writes | — | — |
/// | `.bool` | `true` or `false` | when true | when false |
/// | `.text`, `.int` of an optional | the value, or nothing | when present | when absent |
/// | `.view` | — | once, inside it | never |
/// | `.optional` | — | once inside it, when present | when absent |
/// | `.list` | — | once inside each element | when empty |
///
/// Everything else (a section over text, printing a list) is an error when the template is
/// compiled. Inside a section, names are looked up in the innermost view first, then outwards.
public struct MustacheField<View>: Sendable {
    @usableFromInline let erased: ErasedField

    @usableFromInline
    init(_ erased: ErasedField) {
        self.erased = erased
    }

    /// Text: `{{name}}` escapes it, `{{{name}}}` prints it as is.
    ///
    /// ```swift
    /// "name": .text(\.name)
    /// ```
    @inlinable
    public static func text(_ get: @escaping @Sendable (View) -> String) -> Self {
        Self(ErasedField(
            typeName: "String",
            writeEscaped: { view, buffer in buffer.append(escaping: get(view.assumingMemoryBound(to: View.self).pointee)) },
            writeRaw: { view, buffer in buffer.append(get(view.assumingMemoryBound(to: View.self).pointee)) },
            value: { view in .string(get(view.assumingMemoryBound(to: View.self).pointee)) }
        ))
    }

    /// Text made once (``MustacheText``): printed as the string would be, by copying bytes
    /// escaped (or not) in advance.
    ///
    /// ```swift
    /// "name": .text(\.card.name)     // name: MustacheText
    /// ```
    @inlinable
    public static func text(_ get: @escaping @Sendable (View) -> MustacheText) -> Self {
        Self(ErasedField(
            typeName: "String",
            writeEscaped: { view, buffer in
                buffer.append(get(view.assumingMemoryBound(to: View.self).pointee).escaped)
            },
            writeRaw: { view, buffer in
                buffer.append(get(view.assumingMemoryBound(to: View.self).pointee).raw)
            },
            value: { view in .string(get(view.assumingMemoryBound(to: View.self).pointee).string) }
        ))
    }

    /// Text checked once for what escaping replaces (``MustacheCheckedText``): copied as it
    /// is when it has nothing to escape, escaped as a string otherwise.
    ///
    /// ```swift
    /// "csrf": .text(\.csrf)     // csrf: MustacheCheckedText
    /// ```
    @inlinable
    public static func text(_ get: @escaping @Sendable (View) -> MustacheCheckedText) -> Self {
        Self(ErasedField(
            typeName: "String",
            writeEscaped: { view, buffer in
                let text = get(view.assumingMemoryBound(to: View.self).pointee)
                if text.isPlain { buffer.append(text.string) } else { buffer.append(escaping: text.string) }
            },
            writeRaw: { view, buffer in buffer.append(get(view.assumingMemoryBound(to: View.self).pointee).string) },
            value: { view in .string(get(view.assumingMemoryBound(to: View.self).pointee).string) }
        ))
    }

    /// Text that may be absent: printed when present; a section renders when it is.
    ///
    /// ```swift
    /// "note": .text(\.note)     // note: String?
    /// ```
    @inlinable
    public static func text(_ get: @escaping @Sendable (View) -> String?) -> Self {
        Self(ErasedField(
            typeName: "String?",
            writeEscaped: { view, buffer in
                if let text = get(view.assumingMemoryBound(to: View.self).pointee) { buffer.append(escaping: text) }
            },
            writeRaw: { view, buffer in
                if let text = get(view.assumingMemoryBound(to: View.self).pointee) { buffer.append(text) }
            },
            test: { view in get(view.assumingMemoryBound(to: View.self).pointee) != nil },
            value: { view in get(view.assumingMemoryBound(to: View.self).pointee).map(MustacheValue.string) ?? .null }
        ))
    }

    /// A whole number, written in decimal without an intermediate string.
    ///
    /// ```swift
    /// "quantity": .int(\.quantity)
    /// ```
    @inlinable
    public static func int(_ get: @escaping @Sendable (View) -> Int) -> Self {
        let write: RawWriter = { view, buffer in buffer.append(decimal: get(view.assumingMemoryBound(to: View.self).pointee)) }
        return Self(ErasedField(typeName: "Int", writeEscaped: write, writeRaw: write, value: { view in .int(get(view.assumingMemoryBound(to: View.self).pointee)) }))
    }

    /// A whole number that may be absent: printed when present; a section renders when it is.
    ///
    /// ```swift
    /// "inCart": .int(\.inCart)   // inCart: Int?, nil when none are in the cart
    /// ```
    @inlinable
    public static func int(_ get: @escaping @Sendable (View) -> Int?) -> Self {
        let write: RawWriter = { view, buffer in
            if let number = get(view.assumingMemoryBound(to: View.self).pointee) { buffer.append(decimal: number) }
        }
        return Self(ErasedField(
            typeName: "Int?", writeEscaped: write, writeRaw: write,
            test: { view in get(view.assumingMemoryBound(to: View.self).pointee) != nil },
            value: { view in get(view.assumingMemoryBound(to: View.self).pointee).map(MustacheValue.int) ?? .null }
        ))
    }

    /// A flag for `{{#name}}` and `{{^name}}`; printed as `true` or `false`.
    ///
    /// ```swift
    /// "canDecrease": .bool(\.canDecrease)
    /// ```
    @inlinable
    public static func bool(_ get: @escaping @Sendable (View) -> Bool) -> Self {
        let write: RawWriter = { view, buffer in
            let text: StaticString = get(view.assumingMemoryBound(to: View.self).pointee) ? "true" : "false"
            buffer.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        return Self(ErasedField(
            typeName: "Bool", writeEscaped: write, writeRaw: write,
            test: { view in get(view.assumingMemoryBound(to: View.self).pointee) },
            value: { view in .bool(get(view.assumingMemoryBound(to: View.self).pointee)) }
        ))
    }

    /// Text the view writes itself, straight into the output: for values formatted without
    /// an intermediate string (prices, counts with words). Both `{{name}}` and `{{{name}}}`
    /// print what it writes, so text from outside must go through
    /// ``MustacheOutput/append(escaping:)``.
    ///
    /// ```swift
    /// "count": .custom { view, output in output.append(decimal: view.count); output.append(" items") }
    /// ```
    @inlinable
    public static func custom(_ write: @escaping @Sendable (View, inout MustacheOutput) -> Void) -> Self {
        let raw: RawWriter = { view, buffer in write(view.assumingMemoryBound(to: View.self).pointee, &buffer) }
        return Self(ErasedField(
            typeName: "custom text", writeEscaped: raw, writeRaw: raw,
            value: { view in
                var output = MustacheOutput(capacity: 64)
                write(view.assumingMemoryBound(to: View.self).pointee, &output)
                return .string(String(decoding: output.finish(), as: UTF8.self))
            }
        ))
    }

    /// `field`, marked as the same for every value of the view in this process (the shop's
    /// name, an asset's address): a template fixed with one value of the view
    /// (``MustacheViewTemplate/fixing(_:)``) prints each tag that reads it once, there, into
    /// its static bytes, escaped as the tag would print it. Anywhere else it is `field`.
    ///
    /// ```swift
    /// "shop": .constant(.view(\.shop))    // {{shop.name}}: bytes of the template once fixed
    /// ```
    @inlinable
    public static func constant(_ field: Self) -> Self {
        var erased = field.erased
        erased.isConstant = true
        return Self(erased)
    }

    /// A nested view: `{{#name}}…{{/name}}` renders once inside it, and `{{name.field}}`
    /// reads one of its fields.
    ///
    /// ```swift
    /// "assets": .view(\.assets)    // {{assets.css}}
    /// ```
    @inlinable
    public static func view<Element: MustacheView>(_ get: @escaping @Sendable (View) -> Element) -> Self {
        Self(ErasedField(
            typeName: String(describing: Element.self),
            test: { _ in true },
            each: { view, body in
                withUnsafePointer(to: get(view.assumingMemoryBound(to: View.self).pointee)) { body(UnsafeRawPointer($0)) }
            },
            elementFields: { Element.mustacheFields.erased },
            value: { view in get(view.assumingMemoryBound(to: View.self).pointee).mustacheValue }
        ))
    }

    /// A view that may be absent: a section renders once inside it when present, an
    /// inverted section when absent.
    ///
    /// ```swift
    /// "confirmation": .optional(\.confirmation)
    /// ```
    @inlinable
    public static func optional<Element: MustacheView>(_ get: @escaping @Sendable (View) -> Element?) -> Self {
        Self(ErasedField(
            typeName: "\(Element.self)?",
            test: { view in get(view.assumingMemoryBound(to: View.self).pointee) != nil },
            each: { view, body in
                guard let element = get(view.assumingMemoryBound(to: View.self).pointee) else { return }
                withUnsafePointer(to: element) { body(UnsafeRawPointer($0)) }
            },
            elementFields: { Element.mustacheFields.erased },
            value: { view in get(view.assumingMemoryBound(to: View.self).pointee)?.mustacheValue ?? .null }
        ))
    }

    /// A list of views: a section renders once inside each element, an inverted section
    /// when the list is empty.
    ///
    /// ```swift
    /// "items": .list(\.items)
    /// ```
    @inlinable
    public static func list<Element: MustacheView>(_ get: @escaping @Sendable (View) -> [Element]) -> Self {
        Self(ErasedField(
            typeName: "[\(Element.self)]",
            test: { view in !get(view.assumingMemoryBound(to: View.self).pointee).isEmpty },
            each: { view, body in
                get(view.assumingMemoryBound(to: View.self).pointee).withUnsafeBufferPointer { elements in
                    guard let base = elements.baseAddress else { return }
                    for index in 0..<elements.count { body(UnsafeRawPointer(base + index)) }
                }
            },
            isList: true,
            elementFields: { Element.mustacheFields.erased },
            value: { view in .array(get(view.assumingMemoryBound(to: View.self).pointee).map(\.mustacheValue)) }
        ))
    }
}

// MARK: - The erased form the compiler works with

/// Appends a field's text for the view at a raw address.
@usableFromInline typealias RawWriter = @Sendable (UnsafeRawPointer, inout MustacheOutput) -> Void
/// Whether a section over the field renders.
@usableFromInline typealias RawTest = @Sendable (UnsafeRawPointer) -> Bool
/// Calls the body with the address of each element the field holds (a list's elements, an
/// optional's value, a nested view), valid only during that call.
@usableFromInline typealias RawEach = @Sendable (UnsafeRawPointer, (UnsafeRawPointer) -> Void) -> Void

/// A field with its view's type forgotten: closures over the view's address. The compiler
/// checks names and uses against these, and compiled templates call them.
@usableFromInline
struct ErasedField: Sendable {
    /// The field's type as error messages name it.
    var typeName: String
    var writeEscaped: RawWriter?
    var writeRaw: RawWriter?
    var test: RawTest?
    var each: RawEach?
    var isList = false
    /// Whether the field is the same for every value of its view (``MustacheField/constant(_:)``).
    @usableFromInline var isConstant = false
    /// The fields of the element type, for views, optionals and lists; a closure, so a view
    /// type may contain itself.
    var elementFields: (@Sendable () -> ViewFields)?
    /// The dynamic form, for ``MustacheView/mustacheValue``.
    var value: @Sendable (UnsafeRawPointer) -> MustacheValue

    @usableFromInline
    init(
        typeName: String, writeEscaped: RawWriter? = nil, writeRaw: RawWriter? = nil, test: RawTest? = nil, each: RawEach? = nil,
        isList: Bool = false, elementFields: (@Sendable () -> ViewFields)? = nil, value: @escaping @Sendable (UnsafeRawPointer) -> MustacheValue
    ) {
        self.typeName = typeName
        self.writeEscaped = writeEscaped
        self.writeRaw = writeRaw
        self.test = test
        self.each = each
        self.isList = isList
        self.elementFields = elementFields
        self.value = value
    }
}

/// A view type's fields, erased.
@usableFromInline
struct ViewFields: Sendable {
    let typeName: String
    let fields: [(name: String, field: ErasedField)]

    func field(named name: String) -> ErasedField? {
        fields.first { $0.name == name }?.field
    }

    func value(of view: UnsafeRawPointer) -> MustacheValue {
        var object = MustacheObject()
        for (name, field) in fields { object[name] = field.value(view) }
        return .object(object)
    }
}
