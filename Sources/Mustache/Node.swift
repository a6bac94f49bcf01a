/// One element of a parsed template. Sections own their children, so a
/// template is a tree that rendering walks without re-reading the source.
enum Node: Sendable {
    /// Literal template text: a range of the template's UTF-8 text storage, so
    /// rendering is a plain copy and walking the tree retains nothing for it.
    case text(Range<Int>)

    /// The start of a source line. Renders the indentation of the enclosing
    /// standalone partial, if any; a no-op otherwise. Lines that start inside
    /// a text node are handled by the text node itself.
    case lineStart

    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
    case variable(Path, escaped: Bool)

    /// `{{#name}}…{{/name}}`.
    case section(Path, [Node])

    /// `{{^name}}…{{/name}}`.
    case invertedSection(Path, [Node])

    /// `{{>name}}`. `indent` is the whitespace before a standalone partial
    /// tag, prepended to every line the partial renders.
    case partial(String, indent: [UInt8], at: Location)

    /// A tag name split at its dots once, at parse time.
    struct Path: Sendable {
        /// The dot-separated parts; empty for the implicit iterator `.`.
        let components: [MustacheObject.Name]
        /// The name as written, e.g. `assets.css`.
        let name: String
        /// Where the tag starts, for errors found after parsing (see ``MustacheViewTemplate``).
        let location: Location
    }

    /// A 1-based line and character column in a template's source.
    struct Location: Sendable, Equatable {
        let line: Int
        let column: Int
    }
}
