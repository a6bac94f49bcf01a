/// A Mustache template, parsed once and rendered any number of times.
///
/// Supports the whole Mustache spec except lambdas: escaped and raw
/// variables, dotted names, the implicit iterator `{{.}}`, sections, inverted
/// sections, comments, partials and set-delimiter tags, with the spec's
/// standalone-line and partial-indentation rules.
///
/// ```swift
/// let template = try MustacheTemplate(string: "Hello, {{name}}!", name: "greeting")
/// template.render(["name": "<Joe>"] as MustacheValue)   // "Hello, &lt;Joe&gt;!"
/// ```
public struct MustacheTemplate: Sendable {
    /// How many partials may nest inside one another. A partial tag deeper
    /// than this renders nothing, so a partial that includes itself without
    /// running out of data cannot exhaust the stack.
    ///
    /// ```swift
    /// MustacheTemplate.maximumPartialDepth   // 64
    /// ```
    public static let maximumPartialDepth = 64

    /// The name used in parse errors, e.g. `"inline"` or `"partials/tabbar"`.
    ///
    /// ```swift
    /// try MustacheTemplate(string: "", name: "footer").name   // "footer"
    /// ```
    public let name: String

    /// The parsed token tree.
    let nodes: [Node]

    /// The literal text the tree's `.text` nodes refer to.
    let text: [UInt8]

    /// The source size in bytes: a cheap guess at the output size.
    private let sourceSize: Int

    /// Parses a template.
    ///
    /// ```swift
    /// let row = try MustacheTemplate(string: "<li>{{title}}</li>", name: "row")
    /// ```
    ///
    /// - Parameters:
    ///   - string: The template source.
    ///   - name: The name reported in parse errors.
    /// - Throws: ``MustacheParseError`` with the line and column of an
    ///   unclosed tag, unclosed section, mismatched closing tag, empty or
    ///   invalid tag name, or malformed set-delimiter tag.
    public init(string: String, name: String = "inline") throws(MustacheParseError) {
        self.name = name
        (nodes, text) = try Parser.parse(string, templateName: name)
        sourceSize = string.utf8.count
    }

    /// Renders the template to a string.
    ///
    /// ```swift
    /// let page = try MustacheTemplate(string: "{{>header}}<h1>{{title}}</h1>")
    /// let html = page.render(["title": "Cart"] as MustacheValue, partials: library)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The data; the bottom of the context stack.
    ///   - partials: Where `{{>name}}` tags are looked up. A partial that is
    ///     missing (or `partials` being `nil`) renders as nothing.
    /// - Returns: The rendered text.
    public func render(_ value: some MustacheConvertible, partials: MustacheLibrary? = nil) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(sourceSize + sourceSize / 2)
        render(value, partials: partials, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Renders the template as UTF-8, appending to `buffer`: the fast path for
    /// writing a response body without building an intermediate string.
    ///
    /// ```swift
    /// var body: [UInt8] = []
    /// page.render(viewModel, partials: library, into: &body)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The data; the bottom of the context stack.
    ///   - partials: Where `{{>name}}` tags are looked up. A partial that is
    ///     missing (or `partials` being `nil`) renders as nothing.
    ///   - buffer: Receives the output after whatever it already holds.
    public func render(_ value: some MustacheConvertible, partials: MustacheLibrary?, into buffer: inout [UInt8]) {
        var renderer = Renderer(root: value.mustacheValue, partials: partials)
        renderer.render(nodes, text: text, indent: [], depth: 0, into: &buffer)
    }
}
