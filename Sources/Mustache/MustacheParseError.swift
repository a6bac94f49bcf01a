/// A template that cannot be parsed, with the place where parsing failed.
///
/// ```swift
/// do {
///     _ = try MustacheTemplate(string: "{{#items}}", name: "cart")
/// } catch let error as MustacheParseError {
///     print(error)   // cart:1:1: unclosed section 'items': missing {{/items}}
/// }
/// ```
public struct MustacheParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without the position.
    ///
    /// ```swift
    /// error.message        // "unclosed section 'items': missing {{/items}}"
    /// ```
    public let message: String

    /// The name the template was parsed under: `"inline"` by default, or its
    /// name in a ``MustacheLibrary``.
    ///
    /// ```swift
    /// error.templateName   // "partials/tabbar"
    /// ```
    public let templateName: String

    /// The 1-based line of the offending tag.
    ///
    /// ```swift
    /// error.line           // 3
    /// ```
    public let line: Int

    /// The 1-based column where the offending tag starts, counted in
    /// characters (not bytes).
    ///
    /// ```swift
    /// error.column         // 7
    /// ```
    public let column: Int

    /// Creates an error.
    ///
    /// ```swift
    /// let error = MustacheParseError(message: "empty tag", templateName: "page", line: 3, column: 7)
    /// ```
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - templateName: The template being parsed.
    ///   - line: The 1-based line of the offending tag.
    ///   - column: The 1-based column of the offending tag.
    public init(message: String, templateName: String, line: Int, column: Int) {
        self.message = message
        self.templateName = templateName
        self.line = line
        self.column = column
    }

    /// The error as `name:line:column: message`, the form compilers use so
    /// editors and terminals can link to the spot.
    ///
    /// ```swift
    /// print(error.description)   // page:3:7: empty tag
    /// ```
    ///
    /// - Returns: A one-line description.
    public var description: String {
        "\(templateName):\(line):\(column): \(message)"
    }
}
