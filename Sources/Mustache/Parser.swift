/// Turns template source into a ``Node`` tree in one forward pass over its
/// UTF-8 bytes, applying the spec's standalone-line rules as it goes so that
/// rendering never has to look at whitespace again.
struct Parser {
    private let bytes: [UInt8]
    private let templateName: String
    private var openDelimiter: [UInt8] = Array("{{".utf8)
    private var closeDelimiter: [UInt8] = Array("}}".utf8)
    /// The list being filled: the template's top level or the innermost open section.
    private var nodes: [Node] = []
    /// All literal text of the template, which `.text` nodes index into.
    private var text: [UInt8] = []
    private var openSections: [OpenSection] = []
    /// Whether the next node starts a source line, so it needs a `.lineStart` marker.
    private var atLineStart = true
    /// The last tag located: its offset, line, and where that line starts.
    private var lineCursor = (offset: 0, line: 1, lineStart: 0)

    private struct OpenSection {
        let name: String
        let path: Node.Path
        let isInverted: Bool
        let tagStart: Int
        /// The enclosing list while the section's children are collected.
        var outerNodes: [Node]
    }

    private enum TagKind {
        case variable, unescaped, section, invertedSection, close, comment, partial, delimiters

        /// The spec lets every tag except interpolation stand alone on a line.
        var canStandAlone: Bool {
            switch self {
            case .variable, .unescaped: false
            case .section, .invertedSection, .close, .comment, .partial, .delimiters: true
            }
        }
    }

    private struct Tag {
        let kind: TagKind
        let start: Int
        /// Between the sigil and the terminator, untrimmed.
        let content: Range<Int>
        /// Just past the closing delimiter.
        let end: Int
    }

    /// A tag alone on its line: the line, whitespace and line break included,
    /// is dropped from the output.
    private struct StandaloneLine {
        /// Where the whitespace before the tag begins.
        let indentStart: Int
        /// Just past the line break after the tag (or the end of the source).
        let end: Int
    }

    /// Parses a whole template.
    ///
    /// - Parameters:
    ///   - source: The template text.
    ///   - templateName: The name reported in errors.
    /// - Returns: The top-level nodes and the text storage their `.text` ranges refer to.
    /// - Throws: ``MustacheParseError`` for malformed tags and unbalanced sections.
    static func parse(_ source: String, templateName: String) throws(MustacheParseError) -> (nodes: [Node], text: [UInt8]) {
        var parser = Parser(bytes: Array(source.utf8), templateName: templateName)
        try parser.parse()
        return (parser.nodes, parser.text)
    }

    private init(bytes: [UInt8], templateName: String) {
        self.bytes = bytes
        self.templateName = templateName
    }

    private mutating func parse() throws(MustacheParseError) {
        var textStart = 0
        var cursor = 0
        while let tagStart = find(openDelimiter, from: cursor) {
            let tag = try readTag(at: tagStart)
            let standalone = tag.kind.canStandAlone ? standaloneLine(of: tag, textStart: textStart) : nil
            appendText(textStart..<(standalone?.indentStart ?? tagStart))
            // A tag inside a line is content after that line's start (a close tag's goes with
            // the section's last line); a standalone tag's line disappears with it.
            if standalone == nil { markLineStart() }
            try handle(tag, standalone: standalone)
            cursor = standalone?.end ?? tag.end
            textStart = cursor
        }
        appendText(textStart..<bytes.count)
        if let unclosed = openSections.last {
            throw error(
                "unclosed section '\(unclosed.name)': missing \(string(openDelimiter))/\(unclosed.name)\(string(closeDelimiter))",
                at: unclosed.tagStart
            )
        }
    }

    // MARK: - Tags

    private func readTag(at start: Int) throws(MustacheParseError) -> Tag {
        let afterOpen = start + openDelimiter.count
        let sigil = afterOpen < bytes.count ? bytes[afterOpen] : nil
        let kind: TagKind
        var terminator = closeDelimiter
        switch sigil {
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .invertedSection
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "&"): kind = .unescaped
        case UInt8(ascii: "{"):
            kind = .unescaped
            terminator = [UInt8(ascii: "}")] + closeDelimiter
        case UInt8(ascii: "="):
            kind = .delimiters
            terminator = [UInt8(ascii: "=")] + closeDelimiter
        default:
            kind = .variable
        }
        let contentStart = kind == .variable ? afterOpen : afterOpen + 1
        guard let terminatorStart = find(terminator, from: contentStart) else {
            let opener = string(openDelimiter) + (kind == .variable ? "" : string(bytes[afterOpen..<contentStart]))
            throw error("unclosed tag '\(opener)': missing '\(string(terminator))'", at: start)
        }
        return Tag(kind: kind, start: start, content: contentStart..<terminatorStart, end: terminatorStart + terminator.count)
    }

    private mutating func handle(_ tag: Tag, standalone: StandaloneLine?) throws(MustacheParseError) {
        switch tag.kind {
        case .variable, .unescaped:
            let (_, path) = try name(of: tag)
            nodes.append(.variable(path, escaped: tag.kind == .variable))

        case .section, .invertedSection:
            let (name, path) = try name(of: tag)
            openSections.append(OpenSection(
                name: name, path: path, isInverted: tag.kind == .invertedSection, tagStart: tag.start, outerNodes: []
            ))
            swap(&nodes, &openSections[openSections.count - 1].outerNodes)

        case .close:
            let (name, _) = try name(of: tag)
            guard var section = openSections.popLast() else {
                throw error("closing tag '\(name)' has no open section", at: tag.start)
            }
            guard section.name == name else {
                let (line, column) = position(of: section.tagStart)
                throw error(
                    "closing tag '\(name)' does not match open section '\(section.name)' (line \(line), column \(column))",
                    at: tag.start
                )
            }
            swap(&nodes, &section.outerNodes)
            let children = section.outerNodes
            nodes.append(section.isInverted ? .invertedSection(section.path, children) : .section(section.path, children))

        case .comment:
            break

        case .partial:
            let name = string(trimmed(tag.content))
            guard !name.isEmpty else { throw error("partial tag has no name", at: tag.start) }
            if let standalone {
                nodes.append(.partial(name, indent: Array(bytes[standalone.indentStart..<tag.start]), at: location(of: tag.start)))
            } else {
                nodes.append(.partial(name, indent: [], at: location(of: tag.start)))
            }

        case .delimiters:
            try setDelimiters(from: tag)
        }
    }

    /// Reads `{{=<% %>=}}`: two delimiters separated by whitespace, neither
    /// containing whitespace or `=` (otherwise tags could not be found again).
    private mutating func setDelimiters(from tag: Tag) throws(MustacheParseError) {
        var parts: [ArraySlice<UInt8>] = []
        var index = tag.content.lowerBound
        while index < tag.content.upperBound {
            if isWhitespace(bytes[index]) {
                index += 1
                continue
            }
            let partStart = index
            while index < tag.content.upperBound, !isWhitespace(bytes[index]) { index += 1 }
            parts.append(bytes[partStart..<index])
        }
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            throw error(
                "invalid set-delimiter tag '=\(string(bytes[tag.content]))=': expected two delimiters separated by whitespace, as in {{=<% %>=}}",
                at: tag.start
            )
        }
        openDelimiter = Array(parts[0])
        closeDelimiter = Array(parts[1])
    }

    /// Validates a tag's name: non-empty, no inner whitespace, `.` or dot-separated non-empty parts.
    private mutating func name(of tag: Tag) throws(MustacheParseError) -> (String, Node.Path) {
        let range = trimmed(tag.content)
        guard !range.isEmpty else { throw error("empty tag", at: tag.start) }
        let name = string(bytes[range])
        if find(openDelimiter, in: range) != nil {
            throw error("invalid tag name '\(name)': is an earlier tag missing its '\(string(closeDelimiter))'?", at: tag.start)
        }
        if bytes[range].contains(where: isWhitespace) {
            throw error("invalid tag name '\(name)': names cannot contain whitespace", at: tag.start)
        }
        if name == "." { return (name, Node.Path(components: [], name: name, location: location(of: tag.start))) }
        let components = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !components.contains(where: \.isEmpty) else {
            throw error("invalid tag name '\(name)': empty part between dots", at: tag.start)
        }
        let path = Node.Path(components: components.map { MustacheObject.Name(String($0)) }, name: name, location: location(of: tag.start))
        return (name, path)
    }

    // MARK: - Text and lines

    /// The standalone rule: only whitespace between the tag and the start of
    /// its line (with no other tag on that stretch), and only whitespace
    /// between the tag and the line break or end of source.
    private func standaloneLine(of tag: Tag, textStart: Int) -> StandaloneLine? {
        var indentStart = tag.start
        while indentStart > textStart, isBlank(bytes[indentStart - 1]) { indentStart -= 1 }
        // Delimiters never contain whitespace, so a preceding newline always
        // belongs to text, not to the tail of another tag.
        guard indentStart == 0 || bytes[indentStart - 1] == UInt8(ascii: "\n") else { return nil }
        var end = tag.end
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        if end == bytes.count { return StandaloneLine(indentStart: indentStart, end: end) }
        if bytes[end] == UInt8(ascii: "\n") { return StandaloneLine(indentStart: indentStart, end: end + 1) }
        if bytes[end] == UInt8(ascii: "\r"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\n") {
            return StandaloneLine(indentStart: indentStart, end: end + 2)
        }
        return nil
    }

    private mutating func appendText(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let stored = text.count..<(text.count + range.count)
        text.append(contentsOf: bytes[range])
        if !atLineStart, case .text(let previous) = nodes.last, previous.upperBound == stored.lowerBound {
            // Merging adjacent text (e.g. around a comment) saves a node per render.
            nodes[nodes.count - 1] = .text(previous.lowerBound..<stored.upperBound)
        } else {
            append(.text(stored))
        }
        atLineStart = bytes[range.upperBound - 1] == UInt8(ascii: "\n")
    }

    private mutating func append(_ node: Node) {
        markLineStart()
        nodes.append(node)
    }

    /// Records that content follows a line start, where a standalone partial's
    /// indentation goes.
    private mutating func markLineStart() {
        guard atLineStart else { return }
        nodes.append(.lineStart)
        atLineStart = false
    }

    // MARK: - Bytes

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        find(needle, in: start..<bytes.count)
    }

    private func find(_ needle: [UInt8], in range: Range<Int>) -> Int? {
        guard let first = needle.first else { return nil }
        var index = range.lowerBound
        let last = range.upperBound - needle.count
        while index <= last {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private func string(_ range: Range<Int>) -> String {
        string(bytes[range])
    }

    private func string(_ slice: some Collection<UInt8>) -> String {
        String(decoding: slice, as: UTF8.self)
    }

    // MARK: - Errors

    private func error(_ message: String, at offset: Int) -> MustacheParseError {
        let (line, column) = position(of: offset)
        return MustacheParseError(message: message, templateName: templateName, line: line, column: column)
    }

    /// The location of a tag, counted on from the previous tag's (tags come in source order),
    /// so locating every tag stays linear in the template's size.
    private mutating func location(of offset: Int) -> Node.Location {
        if offset < lineCursor.offset { lineCursor = (0, 1, 0) }
        var (line, lineStart) = (lineCursor.line, lineCursor.lineStart)
        for index in lineCursor.offset..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        lineCursor = (offset, line, lineStart)
        return Node.Location(line: line, column: string(bytes[lineStart..<offset]).count + 1)
    }

    /// 1-based line and character column of a byte offset; only computed for errors.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, string(bytes[lineStart..<offset]).count + 1)
    }
}

/// Space or tab: the whitespace that may surround a standalone tag.
private func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

/// Whitespace allowed around tag names and between set-delimiter parts.
private func isWhitespace(_ byte: UInt8) -> Bool {
    isBlank(byte) || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
}
