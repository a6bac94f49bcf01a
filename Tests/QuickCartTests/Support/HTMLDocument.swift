/// Just enough of an HTML reader to check what QuickCart's pages promise: tags with their
/// attributes, the text inside an element, and elements inside another one.
///
/// It reads the markup the app renders, not arbitrary HTML: attribute values are quoted or
/// bare, comments and scripts hold no tags that matter.
/// ```swift
/// let html = HTMLDocument(page.text)
/// let badge = try #require(html.first { $0.has("data-badge") })
/// #expect(html.text(of: badge) == "3")
/// ```
struct HTMLDocument {
    /// One opening (or self-closing) tag, or a closing tag.
    struct Tag: CustomStringConvertible {
        /// The element's name in lower case, e.g. `a`.
        let name: String
        /// Attributes by lower-cased name; a bare attribute (`hidden`) has the value "".
        let attributes: [String: String]
        let isClosing: Bool
        let isSelfClosing: Bool
        /// Byte offsets of `<` and just past `>` in the document.
        let start: Int
        let end: Int
        /// The tag's index in ``HTMLDocument/tags``.
        let index: Int

        subscript(_ attribute: String) -> String? { attributes[attribute] }

        func has(_ attribute: String) -> Bool { attributes[attribute] != nil }

        var description: String {
            let attributes = attributes.sorted { $0.key < $1.key }.map { $0.value.isEmpty ? $0.key : "\($0.key)=\"\($0.value)\"" }
            return "<\(isClosing ? "/" : "")\(([name] + attributes).joined(separator: " "))>"
        }
    }

    let source: String
    let tags: [Tag]
    private let bytes: [UInt8]

    init(_ source: String) {
        self.source = source
        bytes = Array(source.utf8)
        tags = Self.scan(bytes)
    }

    // MARK: - Finding elements

    /// Opening tags named `name` (any name when `nil`), optionally only those inside `container`.
    func elements(_ name: String? = nil, in container: Tag? = nil, where predicate: (Tag) -> Bool = { _ in true }) -> [Tag] {
        var range = tags.indices
        if let container { range = (container.index + 1)..<closingIndex(of: container) }
        return tags[range].filter { !$0.isClosing && (name == nil || $0.name == name) && predicate($0) }
    }

    /// The first opening tag that satisfies `predicate`.
    func first(_ name: String? = nil, in container: Tag? = nil, where predicate: (Tag) -> Bool = { _ in true }) -> Tag? {
        elements(name, in: container, where: predicate).first
    }

    /// The element named `name` that encloses `tag` most closely.
    func enclosing(_ name: String, of tag: Tag) -> Tag? {
        tags[..<tag.index].last { !$0.isClosing && $0.name == name && closingIndex(of: $0) > tag.index }
    }

    /// Whether `tag` lies inside `container`.
    func contains(_ container: Tag, _ tag: Tag) -> Bool {
        tag.index > container.index && tag.index < closingIndex(of: container)
    }

    /// A button by its accessible name: its `aria-label`, else its text.
    func button(named name: String) -> Tag? {
        first("button") { accessibleName(of: $0) == name }
    }

    // MARK: - Text

    /// The element's text with tags removed, entities decoded and runs of white space
    /// collapsed, like `textContent` after trimming.
    func text(of tag: Tag, skippingHidden: Bool = false) -> String {
        let close = closingIndex(of: tag)
        var pieces: [String] = []
        var cursor = tag.end
        var index = tag.index + 1
        while index < close {
            let inner = tags[index]
            pieces.append(slice(cursor, inner.start))
            if skippingHidden, !inner.isClosing, inner["aria-hidden"] == "true" {
                let skipTo = closingIndex(of: inner)
                cursor = skipTo < tags.count ? tags[skipTo].end : bytes.count
                index = skipTo + 1
                continue
            }
            // Cells, rows and blocks read apart even when the markup runs them together.
            if Self.separatingElements.contains(inner.name) { pieces.append(" ") }
            cursor = inner.end
            index += 1
        }
        pieces.append(slice(cursor, close < tags.count ? tags[close].start : bytes.count))
        return Self.collapse(Self.decodeEntities(pieces.joined()))
    }

    /// What a screen reader calls the element: its `aria-label`, else its visible text.
    func accessibleName(of tag: Tag) -> String {
        tag["aria-label"] ?? text(of: tag, skippingHidden: true)
    }

    /// The markup of the element, from its opening tag to its closing one.
    func markup(of tag: Tag) -> String {
        let close = closingIndex(of: tag)
        return slice(tag.start, close < tags.count ? tags[close].end : bytes.count)
    }

    // MARK: - Scanning

    private static let separatingElements: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "dt", "dd", "h1", "h2", "h3", "section", "table", "form", "label",
    ]

    private static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    /// The index of the tag that closes `tag`, or `tags.count` when it never closes.
    private func closingIndex(of tag: Tag) -> Int {
        if tag.isSelfClosing || Self.voidElements.contains(tag.name) { return tag.index + 1 }
        var depth = 0
        for candidate in tags[(tag.index + 1)...] where candidate.name == tag.name {
            if candidate.isClosing {
                if depth == 0 { return candidate.index }
                depth -= 1
            } else if !candidate.isSelfClosing {
                depth += 1
            }
        }
        return tags.count
    }

    private func slice(_ from: Int, _ to: Int) -> String {
        String(decoding: bytes[from..<max(from, to)], as: UTF8.self)
    }

    private static func scan(_ bytes: [UInt8]) -> [Tag] {
        var tags: [Tag] = []
        var position = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r")
                && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=")
        }
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "<"), position + 1 < bytes.count else {
                position += 1
                continue
            }
            let start = position
            var cursor = position + 1
            // Comments and doctypes carry no elements.
            if bytes[cursor] == UInt8(ascii: "!") {
                let isComment = bytes[cursor...].starts(with: Array("!--".utf8))
                let terminator: [UInt8] = isComment ? Array("-->".utf8) : [UInt8(ascii: ">")]
                var end = cursor
                while end < bytes.count, !bytes[end...].starts(with: terminator) { end += 1 }
                position = end + terminator.count
                continue
            }
            let isClosing = bytes[cursor] == UInt8(ascii: "/")
            if isClosing { cursor += 1 }
            let nameStart = cursor
            while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
            let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self).lowercased()
            guard let first = name.unicodeScalars.first, first.properties.isAlphabetic else {
                position += 1
                continue
            }
            var attributes: [String: String] = [:]
            var isSelfClosing = false
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ">") {
                if isSpace(bytes[cursor]) {
                    cursor += 1
                    continue
                }
                if bytes[cursor] == UInt8(ascii: "/") {
                    isSelfClosing = true
                    cursor += 1
                    continue
                }
                let attributeStart = cursor
                isSelfClosing = false
                while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
                let attribute = String(decoding: bytes[attributeStart..<cursor], as: UTF8.self).lowercased()
                var value = ""
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
                    cursor += 1
                    if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") {
                        let quote = bytes[cursor]
                        let valueStart = cursor + 1
                        cursor = valueStart
                        while cursor < bytes.count, bytes[cursor] != quote { cursor += 1 }
                        value = String(decoding: bytes[valueStart..<min(cursor, bytes.count)], as: UTF8.self)
                        cursor += 1
                    } else {
                        let valueStart = cursor
                        while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
                        value = String(decoding: bytes[valueStart..<cursor], as: UTF8.self)
                    }
                }
                if !attribute.isEmpty, attributes[attribute] == nil {
                    attributes[attribute] = decodeEntities(value)
                }
                if cursor == attributeStart { cursor += 1 }
            }
            let end = min(cursor + 1, bytes.count)
            tags.append(Tag(name: name, attributes: attributes, isClosing: isClosing, isSelfClosing: isSelfClosing && !isClosing, start: start, end: end, index: tags.count))
            position = end
            // A script's or style's content is text, whatever it looks like.
            if !isClosing, name == "script" || name == "style" {
                let terminator = Array("</\(name)".utf8)
                while position < bytes.count, !bytes[position...].starts(with: terminator) { position += 1 }
            }
        }
        return tags
    }

    /// Decodes the entities QuickCart's templates produce, and numeric ones.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
            var decoded: String?
            if let value = named[String(entity)] {
                decoded = value
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace && $0 != "\u{A0}" }).joined(separator: " ")
    }
}
