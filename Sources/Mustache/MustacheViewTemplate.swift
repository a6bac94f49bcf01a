/// A template of a ``MustacheLibrary`` compiled against a ``MustacheView`` type: static byte
/// runs and slots bound to the view's fields, checked once, here, rather than on every render.
///
/// The source stays an ordinary Mustache template; the library still renders it dynamically
/// too. What compiling adds: a tag naming a field the view does not have, a section over a
/// field that is not a list, flag, optional or view, printing a list, or a partial that does
/// not exist throws a ``MustacheBindingError`` naming the template, line and field. Partials
/// are inlined at compile time; lambdas and the implicit iterator `{{.}}` are not supported.
///
/// ```swift
/// let rows = try MustacheViewTemplate<Row>(named: "row", in: library)
/// var output = MustacheOutput()
/// rows.render(Row(name: "Tea", quantity: 2), into: &output)
/// ```
public struct MustacheViewTemplate<View: MustacheView>: Sendable {
    private let program: ViewProgram

    /// Compiles the template `name` of `library` (with the partials it includes) for `View`.
    ///
    /// ```swift
    /// let page = try MustacheViewTemplate<CartPage>(named: "cart", in: library)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The template's name in `library`.
    ///   - library: Where the template and its partials are.
    /// - Throws: ``MustacheBindingError`` when there is no such template, or it does not fit `View`.
    public init(named name: String, in library: MustacheLibrary) throws(MustacheBindingError) {
        program = try ViewCompiler.compile(name, in: library, scope: [View.mustacheFields.erased])
    }

    private init(program: ViewProgram) {
        self.program = program
    }

    /// This template with every tag that reads a field marked ``MustacheField/constant(_:)``
    /// printed once, now, from `sample`, into its static bytes, escaped as the tag prints it:
    /// rendering copies those bytes with the ones around them. Views this copy renders must
    /// have those fields as `sample` has them (the rest of `sample` is not read).
    ///
    /// ```swift
    /// let head = try MustacheViewTemplate<Layout>(named: "head", in: library).fixing(Layout(shop: shop))
    /// ```
    ///
    /// - Parameter sample: A view holding the constant fields' values.
    /// - Returns: The fixed template.
    public func fixing(_ sample: View) -> Self {
        withUnsafePointer(to: sample) { Self(program: program.fixing(UnsafeRawPointer($0))) }
    }

    /// Renders `view` as UTF-8, appending to `output`.
    ///
    /// ```swift
    /// var output = MustacheOutput(capacity: lastSize)
    /// page.render(view, into: &output)
    /// ```
    ///
    /// - Parameters:
    ///   - view: The data.
    ///   - output: Receives the text after whatever it already holds.
    public func render(_ view: View, into output: inout MustacheOutput) {
        withUnsafePointer(to: view) { program.render(UnsafeRawPointer($0), into: &output) }
    }

    /// Renders `view` to a string.
    ///
    /// ```swift
    /// page.render(view)   // "<h1>Cart</h1>…"
    /// ```
    ///
    /// - Parameter view: The data.
    /// - Returns: The rendered text.
    public func render(_ view: View) -> String {
        var output = MustacheOutput()
        render(view, into: &output)
        return String(decoding: output.finish(), as: UTF8.self)
    }
}

/// A template compiled against a view inside an enclosing view: names the inner view lacks
/// are looked up in the outer one, as a section's are. Shared page furniture (a layout's
/// title, a form token) lives once in the outer view and each page's own data in the inner.
///
/// ```swift
/// let content = try MustacheEnclosedViewTemplate<Layout, CartPage>(named: "cart", in: library)
/// content.render(cartPage, in: layout, into: &output)   // {{csrf}} comes from the layout
/// ```
public struct MustacheEnclosedViewTemplate<Outer: MustacheView, View: MustacheView>: Sendable {
    private let program: ViewProgram

    /// Compiles the template `name` of `library` for `View` inside `Outer`.
    ///
    /// ```swift
    /// let content = try MustacheEnclosedViewTemplate<Layout, CartPage>(named: "cart", in: library)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The template's name in `library`.
    ///   - library: Where the template and its partials are.
    /// - Throws: ``MustacheBindingError`` when there is no such template, or it does not fit
    ///   `View` inside `Outer`.
    public init(named name: String, in library: MustacheLibrary) throws(MustacheBindingError) {
        program = try ViewCompiler.compile(name, in: library, scope: [Outer.mustacheFields.erased, View.mustacheFields.erased])
    }

    /// Renders `view` inside `outer` as UTF-8, appending to `output`.
    ///
    /// ```swift
    /// content.render(cartPage, in: layout, into: &output)
    /// ```
    ///
    /// - Parameters:
    ///   - view: The data.
    ///   - outer: The enclosing data, for names `view` does not have.
    ///   - output: Receives the text after whatever it already holds.
    public func render(_ view: View, in outer: Outer, into output: inout MustacheOutput) {
        withUnsafePointer(to: outer) { outer in
            withUnsafePointer(to: view) { view in
                program.render(UnsafeRawPointer(outer), UnsafeRawPointer(view), into: &output)
            }
        }
    }
}
