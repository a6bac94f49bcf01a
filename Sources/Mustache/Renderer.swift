/// Walks a parsed template against a stack of contexts, appending UTF-8 to
/// one buffer. Lives only for the duration of one `render` call.
struct Renderer {
    /// Innermost context last; lookups walk it from the end.
    private var stack: [MustacheValue]
    private let partials: MustacheLibrary?

    init(root: MustacheValue, partials: MustacheLibrary?) {
        stack = [root]
        stack.reserveCapacity(8)
        self.partials = partials
    }

    /// Renders `nodes` in the current context.
    ///
    /// - Parameters:
    ///   - nodes: The template (or section, or partial) to render.
    ///   - text: The storage of the template `nodes` belong to.
    ///   - indent: Whitespace put at the start of every line, from enclosing standalone partials.
    ///   - depth: How many partials deep this is; see ``MustacheTemplate/maximumPartialDepth``.
    ///   - buffer: The output.
    mutating func render(_ nodes: [Node], text: [UInt8], indent: [UInt8], depth: Int, into buffer: inout [UInt8]) {
        for node in nodes {
            switch node {
            case .text(let range):
                if indent.isEmpty {
                    buffer.append(contentsOf: text[range])
                } else {
                    appendIndented(text[range], indent: indent, to: &buffer)
                }

            case .lineStart:
                buffer.append(contentsOf: indent)

            case .variable(let path, let escaped):
                lookup(path).appendInterpolation(to: &buffer, escaped: escaped)

            case .section(let path, let children):
                let value = lookup(path)
                guard value.isTruthy else { continue }
                // A list renders once per element; any other value once, as the context.
                if case .array(let items) = value {
                    for item in items {
                        stack.append(item)
                        render(children, text: text, indent: indent, depth: depth, into: &buffer)
                        stack.removeLast()
                    }
                } else {
                    stack.append(value)
                    render(children, text: text, indent: indent, depth: depth, into: &buffer)
                    stack.removeLast()
                }

            case .invertedSection(let path, let children):
                if !lookup(path).isTruthy {
                    render(children, text: text, indent: indent, depth: depth, into: &buffer)
                }

            case .partial(let name, let partialIndent, _):
                // A missing partial renders as nothing (spec); so does one nested
                // too deep, which stops recursion that data never ends.
                guard depth < MustacheTemplate.maximumPartialDepth, let template = partials?[name] else { continue }
                let innerIndent = partialIndent.isEmpty ? indent : indent + partialIndent
                render(template.nodes, text: template.text, indent: innerIndent, depth: depth + 1, into: &buffer)
            }
        }
    }

    /// Spec name resolution: `.` is the top context; otherwise the first part
    /// is looked up from the innermost context outwards, and the remaining
    /// parts only inside what it found (a broken chain is `.null`, not a
    /// reason to keep searching outer contexts).
    private func lookup(_ path: Node.Path) -> MustacheValue {
        let components = path.components
        guard let first = components.first else { return stack[stack.count - 1] }
        var index = stack.count - 1
        while index >= 0 {
            if case .object(let hash) = stack[index], var value = hash[first] {
                for position in 1..<components.count {
                    guard case .object(let nested) = value, let next = nested[components[position]] else { return .null }
                    value = next
                }
                return value
            }
            index -= 1
        }
        return .null
    }

    /// Copies text, putting `indent` after every line break that is followed
    /// by more of this text. Line starts at node boundaries are `.lineStart` nodes.
    private func appendIndented(_ text: ArraySlice<UInt8>, indent: [UInt8], to buffer: inout [UInt8]) {
        var runStart = text.startIndex
        for index in text.startIndex..<(text.endIndex - 1) where text[index] == UInt8(ascii: "\n") {
            buffer.append(contentsOf: text[runStart...index])
            buffer.append(contentsOf: indent)
            runStart = index + 1
        }
        buffer.append(contentsOf: text[runStart...])
    }
}
