// Foundation only to find the folder's path for error messages.
import FoundationEssentials
import Mustache

/// A page's content view: a typed view with the template in `Views/` that shows it inside the
/// layout. The feature that shows the page compiles it at start (``PageRenderer/page(_:tab:)``).
protocol PageView: MustacheView {
    /// The template's name in `Views/`, e.g. `cart` for `Views/cart.mustache`.
    static var templateName: String { get }
}

/// A page's template compiled against its view inside the ``LayoutView``: names the page's
/// view does not have (`csrf`, `returnTo`) come from the layout.
struct PageTemplate<Content: PageView>: Sendable {
    let content: MustacheEnclosedViewTemplate<LayoutView, Content>
    /// The size of the last page rendered with it: the next page's buffer starts that big, so
    /// it rarely grows while rendering.
    let lastSize = PageSize()

    init(in library: MustacheLibrary) throws(MustacheBindingError) {
        content = try MustacheEnclosedViewTemplate(named: Content.templateName, in: library)
    }
}

/// The templates of `Views/`, parsed at start, with the layout compiled; each page's template
/// is compiled against its view by the feature that shows it, while the shop starts
/// (``compile(_:)``). A template that names a field its view lacks, a section over something
/// that is not a list, flag, optional or view, a missing partial, or a view whose template is
/// missing stops the start with the file, line and field. A class: every page reads it, and
/// copying a struct of them retains each.
final class PageTemplates: Sendable {
    /// What every page starts and ends with: head, header, tab bar, live region.
    let layoutStart: MustacheViewTemplate<LayoutView>
    let layoutEnd: MustacheViewTemplate<LayoutView>
    private let library: MustacheLibrary
    private let directory: String

    /// Loads `Views/` and compiles the layout.
    /// - Throws: ``TemplateError`` naming the file, line and column of the first problem.
    init(directory: String) throws(TemplateError) {
        self.directory = directory
        do {
            library = try MustacheLibrary(directory: directory)
        } catch let error as MustacheParseError {
            throw TemplateError(directory: directory, template: error.templateName, line: error.line, column: error.column, message: error.message)
        } catch {
            throw TemplateError(description: "cannot read the templates in \(directory): \(error)")
        }
        do {
            layoutStart = try MustacheViewTemplate(named: "layout-start", in: library)
            layoutEnd = try MustacheViewTemplate(named: "layout-end", in: library)
        } catch {
            throw TemplateError(directory: directory, template: error.templateName, line: error.line, column: error.column, message: error.message)
        }
    }

    private init(layoutStart: MustacheViewTemplate<LayoutView>, layoutEnd: MustacheViewTemplate<LayoutView>, library: MustacheLibrary, directory: String) {
        self.layoutStart = layoutStart
        self.layoutEnd = layoutEnd
        self.library = library
        self.directory = directory
    }

    /// These templates with the layout's constant fields (the shop's name and release, the
    /// assets' addresses) printed once from `layout` into its static bytes, as every page's
    /// layout has the same ones.
    func fixing(_ layout: LayoutView) -> PageTemplates {
        PageTemplates(layoutStart: layoutStart.fixing(layout), layoutEnd: layoutEnd.fixing(layout), library: library, directory: directory)
    }

    /// `Content`'s template compiled against it inside the layout.
    /// - Throws: ``TemplateError`` naming the file, line and column of the first problem.
    func compile<Content: PageView>(_: Content.Type) throws(TemplateError) -> PageTemplate<Content> {
        do {
            return try PageTemplate(in: library)
        } catch {
            throw TemplateError(directory: directory, template: error.templateName, line: error.line, column: error.column, message: error.message)
        }
    }
}

/// A template in `Views/` that cannot be used, with the file and place: `Views/cart.mustache:12:5: …`.
struct TemplateError: Error, CustomStringConvertible {
    let description: String

    init(description: String) {
        self.description = description
    }

    init(directory: String, template: String, line: Int, column: Int, message: String) {
        let file = URL(fileURLWithPath: directory).appendingPathComponent(template + ".mustache").path
        description = line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}
