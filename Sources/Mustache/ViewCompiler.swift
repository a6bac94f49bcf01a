/// Binds a parsed template (and the partials it includes, inlined) to a stack of view types.
struct ViewCompiler {
    private let library: MustacheLibrary
    private var text: [UInt8] = []
    private var frameCount = 0

    /// Compiles the template `name` of `library` with `scope` as the views around it,
    /// outermost first.
    static func compile(_ name: String, in library: MustacheLibrary, scope: [ViewFields]) throws(MustacheBindingError) -> ViewProgram {
        guard let template = library[name] else {
            throw MustacheBindingError(
                message: "no template named '\(name)' for \(scope.last?.typeName ?? "the view")", templateName: name, line: 0, column: 0, name: name
            )
        }
        var compiler = ViewCompiler(library: library)
        compiler.frameCount = scope.count
        var steps: [ViewProgram.Step] = []
        try compiler.compile(template.nodes, of: template, scope: scope, indent: [], depth: 0, into: &steps)
        // The program keeps offsets in 32 bits.
        guard compiler.text.count < Int(Int32.max) else {
            throw MustacheBindingError(
                message: "'\(name)' with its partials is larger than 2 GiB", templateName: name, line: 0, column: 0, name: name
            )
        }
        return ViewProgram(steps: steps, text: compiler.text, frameCount: compiler.frameCount)
    }

    private init(library: MustacheLibrary) {
        self.library = library
    }

    /// Appends the steps of `nodes` to `steps`; a partial's go into the same list, so static
    /// bytes on either side of its tag merge into one run.
    private mutating func compile(
        _ nodes: [Node], of template: MustacheTemplate, scope: [ViewFields], indent: [UInt8], depth: Int, into steps: inout [ViewProgram.Step]
    ) throws(MustacheBindingError) {
        for node in nodes {
            switch node {
            case .text(let range):
                appendText(template.text[range], indent: indent, to: &steps)

            case .lineStart:
                appendText(indent[...], indent: [], to: &steps)

            case .variable(let path, let escaped):
                let (frame, field) = try resolve(path, in: scope, template: template)
                guard let write = escaped ? field.writeEscaped : field.writeRaw else {
                    throw error("'\(path.name)' is \(field.typeName), which cannot be printed; use a section to go inside it", path, template)
                }
                steps.append(.init(kind: .write, frame: frame, write: write, isConstant: field.isConstant))

            case .section(let path, let children):
                let (frame, field) = try resolve(path, in: scope, template: template)
                if let each = field.each, let elementFields = field.elementFields {
                    let inner = scope + [elementFields()]
                    frameCount = max(frameCount, inner.count)
                    var body: [ViewProgram.Step] = []
                    try compile(children, of: template, scope: inner, indent: indent, depth: depth, into: &body)
                    steps.append(.init(kind: .each, frame: frame, each: each, into: scope.count, children: body))
                } else if let test = field.test {
                    var body: [ViewProgram.Step] = []
                    try compile(children, of: template, scope: scope, indent: indent, depth: depth, into: &body)
                    steps.append(.init(kind: .when, frame: frame, test: test, expected: true, children: body))
                } else {
                    throw error(
                        "section '\(path.name)' is over \(field.typeName); a section needs a list, a Bool, an optional or a view", path, template
                    )
                }

            case .invertedSection(let path, let children):
                let (frame, field) = try resolve(path, in: scope, template: template)
                guard let test = field.test else {
                    throw error(
                        "inverted section '\(path.name)' is over \(field.typeName), which is never empty; it needs a list, a Bool or an optional",
                        path, template
                    )
                }
                var body: [ViewProgram.Step] = []
                try compile(children, of: template, scope: scope, indent: indent, depth: depth, into: &body)
                steps.append(.init(kind: .when, frame: frame, test: test, expected: false, children: body))

            case .partial(let name, let partialIndent, let location):
                guard let partial = library[name] else {
                    throw MustacheBindingError(
                        message: "no partial named '\(name)'", templateName: template.name, line: location.line, column: location.column, name: name
                    )
                }
                // Partials are inlined, so one that includes itself would never end.
                guard depth < MustacheTemplate.maximumPartialDepth else {
                    throw MustacheBindingError(
                        message: "partials nest deeper than \(MustacheTemplate.maximumPartialDepth) (does '\(name)' include itself?)",
                        templateName: template.name, line: location.line, column: location.column, name: name
                    )
                }
                try compile(partial.nodes, of: partial, scope: scope, indent: indent + partialIndent, depth: depth + 1, into: &steps)
            }
        }
    }

    /// Spec name resolution, done once: the first part from the innermost view outwards, the
    /// remaining parts inside what it found.
    private func resolve(_ path: Node.Path, in scope: [ViewFields], template: MustacheTemplate) throws(MustacheBindingError) -> (Int, ErasedField) {
        guard let first = path.components.first else {
            throw error("the implicit iterator '{{.}}' has no type to print; name a field", path, template)
        }
        guard let frame = scope.indices.last(where: { scope[$0].field(named: first.text) != nil }),
              var field = scope[frame].field(named: first.text) else {
            let types = scope.reversed().map(\.typeName).joined(separator: " or ")
            throw error("no field '\(first.text)' in \(types)", path, template)
        }
        for component in path.components.dropFirst() {
            guard !field.isList, let through = field.each, let fields = field.elementFields?() else {
                throw error("'\(path.name)': cannot look inside \(field.typeName) for '\(component.text)'", path, template)
            }
            guard let inner = fields.field(named: component.text) else {
                throw error("'\(path.name)': no field '\(component.text)' in \(fields.typeName)", path, template)
            }
            // Whatever is read inside a constant field is constant too.
            let isConstant = field.isConstant || inner.isConstant
            field = Self.field(inner, through: through)
            field.isConstant = isConstant
        }
        return (frame, field)
    }

    /// `inner`, read inside the view (or optional view) that `through` yields.
    private static func field(_ inner: ErasedField, through: @escaping RawEach) -> ErasedField {
        var field = inner
        if let write = inner.writeEscaped { field.writeEscaped = writer(write, through: through) }
        if let write = inner.writeRaw { field.writeRaw = writer(write, through: through) }
        if let test = inner.test {
            field.test = { @Sendable (view: UnsafeRawPointer) -> Bool in
                var result = false
                through(view) { result = test($0) }
                return result
            }
        }
        if let each = inner.each {
            field.each = { @Sendable (view: UnsafeRawPointer, body: (UnsafeRawPointer) -> Void) in
                through(view) { each($0, body) }
            }
        }
        return field
    }

    private static func writer(_ write: @escaping RawWriter, through: @escaping RawEach) -> RawWriter {
        { @Sendable (view: UnsafeRawPointer, buffer: inout MustacheOutput) in
            through(view) { write($0, &buffer) }
        }
    }

    /// Appends static bytes, with `indent` after each line break followed by more of them,
    /// merged into the previous step when that is static bytes too.
    private mutating func appendText(_ bytes: ArraySlice<UInt8>, indent: [UInt8], to steps: inout [ViewProgram.Step]) {
        guard !bytes.isEmpty else { return }
        let start = text.count
        if indent.isEmpty {
            text.append(contentsOf: bytes)
        } else {
            for index in bytes.indices {
                text.append(bytes[index])
                if bytes[index] == UInt8(ascii: "\n"), index + 1 < bytes.endIndex { text.append(contentsOf: indent) }
            }
        }
        ViewProgram.Step.appendText(start..<text.count, to: &steps)
    }

    private func error(_ message: String, _ path: Node.Path, _ template: MustacheTemplate) -> MustacheBindingError {
        MustacheBindingError(
            message: message, templateName: template.name, line: path.location.line, column: path.location.column,
            name: path.name
        )
    }
}
