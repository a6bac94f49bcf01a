/// A template compiled against view types: runs of static bytes and slots bound to fields.
///
/// Rendering keeps one address per view in scope (`frames`): the views given to `render`,
/// then one per open section. Each slot was resolved at compile time to a frame and a
/// field of that frame's type, so rendering never looks a name up, copies a value into a
/// dynamic form, or allocates per tag.
struct ViewProgram: Sendable {
    /// One instruction. A struct with a part for each kind rather than an enum with
    /// payloads: the runner reads the parts in place, where binding an enum's payload would
    /// copy (and retain) each closure on every render.
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
    }

    /// Every step in one array, each section's body a contiguous range of it, so running
    /// a section passes two integers rather than retaining an array.
    let steps: [Step]
    /// The top level's steps.
    let top: Range<Int>
    /// Every static byte, partials and their indentation included.
    let text: [UInt8]
    /// How many frames rendering needs: the views in scope at the deepest section.
    let frameCount: Int

    init(steps tree: [Step], text: [UInt8], frameCount: Int) {
        var steps: [Step] = []
        top = Self.flatten(tree, into: &steps)
        self.steps = steps
        self.text = text
        self.frameCount = frameCount
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
                    Self.run(top, of: steps, text: text, frames: frames.baseAddress!, into: &output)
                }
            }
        }
    }

    private static func run(
        _ range: Range<Int>, of steps: UnsafeBufferPointer<Step>, text: UnsafeBufferPointer<UInt8>,
        frames: UnsafeMutablePointer<UnsafeRawPointer>, into output: inout MustacheOutput
    ) {
        for index in range {
            switch steps[index].kind {
            case .text:
                output.append(UnsafeBufferPointer(rebasing: text[steps[index].text]))
            case .write:
                steps[index].write(frames[steps[index].frame], &output)
            case .when:
                if steps[index].test(frames[steps[index].frame]) == steps[index].expected {
                    run(steps[index].body, of: steps, text: text, frames: frames, into: &output)
                }
            case .each:
                let into = steps[index].into
                let body = steps[index].body
                steps[index].each(frames[steps[index].frame]) { element in
                    frames[into] = element
                    run(body, of: steps, text: text, frames: frames, into: &output)
                }
            }
        }
    }
}
