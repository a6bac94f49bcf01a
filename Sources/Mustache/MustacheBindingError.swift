/// A template that does not fit its view: it names a field the view (or an enclosing view)
/// does not have, uses a field in a way its type does not allow, or includes a partial that
/// does not exist. Found when the template is compiled (``MustacheViewTemplate``), before
/// anything is rendered.
///
/// ```swift
/// do {
///     _ = try MustacheViewTemplate<Row>(named: "row", in: library)
/// } catch {
///     print(error)   // row:3:5: Row has no field 'nmae'
/// }
/// ```
public struct MustacheBindingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without the position.
    ///
    /// ```swift
    /// error.message        // "Row has no field 'nmae'"
    /// ```
    public let message: String

    /// The template (or partial) holding the offending tag, by its name in the library;
    /// for a missing template, the name asked for.
    ///
    /// ```swift
    /// error.templateName   // "partials/product"
    /// ```
    public let templateName: String

    /// The 1-based line of the offending tag; 0 when the template itself is missing.
    ///
    /// ```swift
    /// error.line           // 3
    /// ```
    public let line: Int

    /// The 1-based column of the offending tag, in characters; 0 when the template is missing.
    ///
    /// ```swift
    /// error.column         // 5
    /// ```
    public let column: Int

    /// The name the tag uses (a field or a partial), if the error is about one.
    ///
    /// ```swift
    /// error.name           // "nmae"
    /// ```
    public let name: String?

    /// Creates an error.
    ///
    /// ```swift
    /// let error = MustacheBindingError(message: "Row has no field 'x'", templateName: "row", line: 1, column: 1, name: "x")
    /// ```
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - templateName: The template holding the tag.
    ///   - line: The 1-based line of the tag.
    ///   - column: The 1-based column of the tag.
    ///   - name: The field or partial the tag names.
    public init(message: String, templateName: String, line: Int, column: Int, name: String?) {
        self.message = message
        self.templateName = templateName
        self.line = line
        self.column = column
        self.name = name
    }

    /// The error as `name:line:column: message` (just `name: message` for a missing template).
    ///
    /// ```swift
    /// print(error.description)   // row:3:5: Row has no field 'nmae'
    /// ```
    ///
    /// - Returns: A one-line description.
    public var description: String {
        line > 0 ? "\(templateName):\(line):\(column): \(message)" : "\(templateName): \(message)"
    }
}
