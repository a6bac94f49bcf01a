/// A set of parsed templates by name: the pages of a site and the partials
/// they include. Templates are parsed when added, so rendering never parses.
///
/// ```swift
/// let library = try MustacheLibrary(templates: [
///     "page": "<main>{{>item}}</main>",
///     "item": "<p>{{name}}</p>",
/// ])
/// library.render("page", with: ["name": "Tea"] as MustacheValue)   // "<main><p>Tea</p></main>"
/// ```
public struct MustacheLibrary: Sendable {
    private var templates: [String: MustacheTemplate]

    /// Creates an empty library.
    ///
    /// ```swift
    /// var library = MustacheLibrary()
    /// library.register(try MustacheTemplate(string: "{{a}}"), named: "a")
    /// ```
    public init() {
        templates = [:]
    }

    /// Parses templates from source.
    ///
    /// ```swift
    /// let library = try MustacheLibrary(templates: ["header": "<h1>{{title}}</h1>"])
    /// ```
    ///
    /// - Parameter templates: Template source by name; each name is also the
    ///   one `{{>name}}` uses and errors report.
    /// - Throws: ``MustacheParseError`` for the first malformed template, in name order.
    public init(templates: [String: String]) throws(MustacheParseError) {
        self.templates = [:]
        for (name, source) in templates.sorted(by: { $0.key < $1.key }) {
            self.templates[name] = try MustacheTemplate(string: source, name: name)
        }
    }

    /// The names of all templates, sorted.
    ///
    /// ```swift
    /// library.names   // ["layout", "partials/tabbar"]
    /// ```
    public var names: [String] {
        templates.keys.sorted()
    }

    /// The template registered under `name`, if any.
    ///
    /// ```swift
    /// let header = library["header"]
    /// ```
    ///
    /// - Parameter name: The template's name.
    /// - Returns: The template, or `nil` when there is none by that name.
    public subscript(name: String) -> MustacheTemplate? {
        templates[name]
    }

    /// Adds a template, replacing any already registered under `name`.
    ///
    /// ```swift
    /// library.register(try MustacheTemplate(string: "<footer/>", name: "footer"), named: "footer")
    /// ```
    ///
    /// - Parameters:
    ///   - template: A parsed template.
    ///   - name: The name to find it by, also used by `{{>name}}` tags.
    public mutating func register(_ template: MustacheTemplate, named name: String) {
        templates[name] = template
    }

    /// Renders a template of this library to a string, with this library
    /// providing its partials.
    ///
    /// ```swift
    /// let html = library.render("page", with: viewModel) ?? ""
    /// ```
    ///
    /// - Parameters:
    ///   - name: The template to render.
    ///   - value: The data.
    /// - Returns: The rendered text, or `nil` when there is no template named `name`.
    public func render(_ name: String, with value: some MustacheConvertible) -> String? {
        templates[name]?.render(value, partials: self)
    }

    /// Renders a template of this library as UTF-8, appending to `buffer`,
    /// with this library providing its partials.
    ///
    /// ```swift
    /// var body: [UInt8] = []
    /// guard library.render("page", with: viewModel, into: &body) else { return notFound() }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The template to render.
    ///   - value: The data.
    ///   - buffer: Receives the output after whatever it already holds.
    /// - Returns: `false`, leaving `buffer` untouched, when there is no template named `name`.
    public func render(_ name: String, with value: some MustacheConvertible, into buffer: inout [UInt8]) -> Bool {
        guard let template = templates[name] else { return false }
        template.render(value, partials: self, into: &buffer)
        return true
    }
}
