/// A template compiled against view types: runs of static bytes and slots bound to fields.
///
/// Rendering keeps one address per view in scope (`frames`): the views given to `render`,
/// then one per open section. Each slot was resolved at compile time to a frame and a
/// field of that frame's type, so rendering never looks a name up, copies a value into a
/// dynamic form, or allocates per tag.
struct ViewProgram: Sendable {
    /// One step as the compiler builds it, sections holding their own steps; the program
    /// flattens them into ``Instruction``s, which rendering reads.
    struct Step: Sendable {
        enum Kind: Sendable {
            /// Static bytes: `text`, a range of ``ViewProgram/text``.
            case text
            /// `write` prints a field of the view in `frame`.
            case write
            /// The body when `test` of the view in `frame` gives `expected` (a flag, an
            /// optional, a list's emptiness); the scope is unchanged.
            case when
            /// The body once per element `each` yields for the view in `frame`, each
            /// element in frame `into`.
            case each
        }

        var kind: Kind
        var frame = 0
        var text: Range<Int> = 0..<0
        // Not optionals: calling a closure stored in an optional costs a thunk allocation.
        var write: RawWriter = { _, _ in }
        var test: RawTest = { _ in false }
        var expected = true
        var each: RawEach = { _, _ in }
        var into = 0
        /// A section's steps while compiling; ``ViewProgram/init(steps:text:frameCount:)``
        /// moves them into `body`.
        var children: [Step] = []
        /// A section's steps: a range of ``ViewProgram/steps``.
        var body: Range<Int> = 0..<0
        /// Static bytes printed before the step's own work: the text step before it, fused
        /// into it, so a tag and the bytes leading up to it take one turn of the loop.
        var prefix: Range<Int> = 0..<0
        /// Whether `write` prints a field that is the same for every view of its type
        /// (``MustacheField/constant(_:)``), so ``ViewProgram/fixing(_:)`` may print it once.
        var isConstant = false

        /// Appends the static bytes `range` (of the text the steps refer to) to `steps`, merged
        /// into the last step when that is static bytes ending where they start.
        static func appendText(_ range: Range<Int>, to steps: inout [Step]) {
            guard !range.isEmpty else { return }
            if let last = steps.last, last.kind == .text, last.text.upperBound == range.lowerBound {
                steps[steps.count - 1].text = last.text.lowerBound..<range.upperBound
            } else {
                steps.append(.init(kind: .text, text: range))
            }
        }
    }

    /// What running one step needs, with no reference counted parts, so reading a step
    /// retains nothing: the field's closures are reached through an unowned reference to
    /// their box, which ``ViewProgram/fields`` keeps alive.
    struct Instruction {
        // 32-bit offsets keep an instruction to 40 bytes; ``ViewCompiler`` refuses larger templates.
        var kind: Step.Kind
        var expected: Bool
        var frame: Int32
        var into: Int32
        /// Static bytes printed first, as `prefixStart..<prefixEnd` of ``ViewProgram/text``.
        var prefixStart: Int32
        var prefixEnd: Int32
        /// Static bytes (`.text`) or a section's body (`.when`, `.each`), as `start..<end`.
        var start: Int32
        var end: Int32
        var field: Unmanaged<FieldActions>
    }

    /// A step's closures, boxed once, so the runner calls them from a `let` of a class
    /// rather than copying (and retaining) them out of an array on every render.
    final class FieldActions: Sendable {
        let write: RawWriter
        let test: RawTest
        let each: RawEach

        init(_ step: Step) {
            write = step.write
            test = step.test
            each = step.each
        }

        func write(_ view: UnsafeRawPointer, into output: inout MustacheOutput) {
            write(view, &output)
        }

        func test(_ view: UnsafeRawPointer) -> Bool {
            test(view)
        }

        func each(_ view: UnsafeRawPointer, _ body: (UnsafeRawPointer) -> Void) {
            each(view, body)
        }
    }

    /// Every step in one array, each section's body a contiguous range of it, so running
    /// a section passes two integers rather than retaining an array.
    let steps: [Instruction]
    /// The boxes the steps' `field` references point to.
    let fields: [FieldActions]
    /// The top level's steps.
    let top: Range<Int>
    /// Every static byte, partials and their indentation included.
    let text: [UInt8]
    /// How many frames rendering needs: the views in scope at the deepest section.
    let frameCount: Int
    /// The steps as compiled, before fusing and flattening, for ``fixing(_:)``.
    private let tree: [Step]

    init(steps tree: [Step], text: [UInt8], frameCount: Int) {
        self.tree = tree
        var flat: [Step] = []
        top = Self.flatten(Self.fused(tree), into: &flat)
        let none = FieldActions(Step(kind: .text))
        var fields = [none]
        let instructions = flat.map { step in
            var field = none
            if step.kind != .text {
                field = FieldActions(step)
                fields.append(field)
            }
            let range = step.kind == .text ? step.text : step.body
            return Instruction(
                kind: step.kind, expected: step.expected, frame: Int32(step.frame), into: Int32(step.into),
                prefixStart: Int32(step.prefix.lowerBound), prefixEnd: Int32(step.prefix.upperBound),
                start: Int32(range.lowerBound), end: Int32(range.upperBound),
                field: Unmanaged.passUnretained(field)
            )
        }
        // One instruction more than any range reaches, so the buffer rendering walks has an address.
        steps = instructions + [Instruction(
            kind: .text, expected: true, frame: 0, into: 0, prefixStart: 0, prefixEnd: 0, start: 0, end: 0, field: Unmanaged.passUnretained(none)
        )]
        self.fields = fields
        // A byte more than any step reads, so the buffers rendering walks have an address.
        self.text = text + [0]
        self.frameCount = frameCount
    }

    /// The program with each tag that prints a constant field of the view in the first frame
    /// printed now, from `root`, into the static bytes around it.
    func fixing(_ root: UnsafeRawPointer) -> ViewProgram {
        var fixedText: [UInt8] = []
        let steps = Self.fixed(tree, root: root, text: text, into: &fixedText)
        return ViewProgram(steps: steps, text: fixedText, frameCount: frameCount)
    }

    private static func fixed(_ steps: [Step], root: UnsafeRawPointer, text: [UInt8], into fixedText: inout [UInt8]) -> [Step] {
        var result: [Step] = []
        for var step in steps {
            let start = fixedText.count
            switch step.kind {
            case .text:
                fixedText += text[step.text]
                Step.appendText(start..<fixedText.count, to: &result)
            case .write where step.isConstant && step.frame == 0:
                var output = MustacheOutput(capacity: 256)
                step.write(root, &output)
                fixedText += output.finish()
                Step.appendText(start..<fixedText.count, to: &result)
            case .write, .when, .each:
                step.children = fixed(step.children, root: root, text: text, into: &fixedText)
                result.append(step)
            }
        }
        return result
    }

    /// `steps` with each text step that comes before a tag or section moved into it.
    private static func fused(_ steps: [Step]) -> [Step] {
        var result: [Step] = []
        for var step in steps {
            step.children = fused(step.children)
            if step.kind != .text, let last = result.last, last.kind == .text, last.prefix.isEmpty {
                step.prefix = last.text
                result[result.count - 1] = step
            } else {
                result.append(step)
            }
        }
        return result
    }

    private static func flatten(_ tree: [Step], into steps: inout [Step]) -> Range<Int> {
        let range = steps.count..<(steps.count + tree.count)
        steps += tree
        for (offset, step) in tree.enumerated() where !step.children.isEmpty {
            steps[range.lowerBound + offset].body = flatten(step.children, into: &steps)
            steps[range.lowerBound + offset].children = []
        }
        return range
    }

    /// Renders with `root` in the first frame, and `inner` (when given) in the second.
    func render(_ root: UnsafeRawPointer, _ inner: UnsafeRawPointer? = nil, into output: inout MustacheOutput) {
        withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: frameCount) { frames in
            frames.initializeElement(at: 0, to: root)
            if let inner { frames.initializeElement(at: 1, to: inner) }
            text.withUnsafeBufferPointer { text in
                steps.withUnsafeBufferPointer { steps in
                    // Never empty: the init adds a byte and an instruction past the end.
                    Self.run(top, of: steps.baseAddress!, text: text.baseAddress!, frames: frames.baseAddress!, into: &output)
                }
            }
        }
    }

    private static func run(
        _ range: Range<Int>, of steps: UnsafePointer<Instruction>, text: UnsafePointer<UInt8>,
        frames: UnsafeMutablePointer<UnsafeRawPointer>, into output: inout MustacheOutput
    ) {
        // Read in place through a pointer: copying each instruction out costs more than its work.
        var step = steps + range.lowerBound
        let end = steps + range.upperBound
        while step < end {
            defer { step += 1 }
            let prefix = Int(step.pointee.prefixStart)
            if step.pointee.prefixEnd > step.pointee.prefixStart {
                output.append(UnsafeBufferPointer(start: text + prefix, count: Int(step.pointee.prefixEnd) - prefix))
            }
            switch step.pointee.kind {
            case .text:
                let start = Int(step.pointee.start)
                output.append(UnsafeBufferPointer(start: text + start, count: Int(step.pointee.end) - start))
            case .write:
                let view = frames[Int(step.pointee.frame)]
                step.pointee.field._withUnsafeGuaranteedRef { $0.write(view, into: &output) }
            case .when:
                let view = frames[Int(step.pointee.frame)]
                if step.pointee.field._withUnsafeGuaranteedRef({ $0.test(view) }) == step.pointee.expected {
                    run(Int(step.pointee.start)..<Int(step.pointee.end), of: steps, text: text, frames: frames, into: &output)
                }
            case .each:
                let view = frames[Int(step.pointee.frame)]
                let into = Int(step.pointee.into)
                let body = Int(step.pointee.start)..<Int(step.pointee.end)
                step.pointee.field._withUnsafeGuaranteedRef { field in
                    field.each(view) { element in
                        frames[into] = element
                        run(body, of: steps, text: text, frames: frames, into: &output)
                    }
                }
            }
        }
    }
}
