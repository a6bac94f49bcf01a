// Fuzz target: Mustache template parsing and rendering.
//
// Built by Fuzz/run together with Sources/Mustache/*.swift into one module, so the harness can
// read the parsed tree (internal) to bound the rendering work; see `renderCost`.
//
// Each input is a template (UTF-8, invalid bytes replaced). It must either parse or throw a
// `MustacheParseError` whose position lies inside the source; a parsed template is rendered
// against fixed data (HTML-special strings, numbers at their limits, nested objects, lists) with
// a library holding the app's real templates and the template itself (as "fuzz", so it may
// include itself), twice and through both render APIs: the outputs must agree.

#if canImport(Glibc)
import Glibc
#endif

private let data: MustacheValue = [
    "title": "<Tea & \"Biscuits\"> 'n' `more`",
    "name": "O'Brien",
    "empty": "",
    "html": "<script>alert(1)</script>",
    "unicode": .string("é 漢字 🙂 \u{0} \u{202E}"),
    "zero": 0, "one": 1, "min": .int(Int.min), "max": .int(Int.max),
    "pi": 3.14159, "negative": -2.5, "huge": 1e300, "tiny": .double(.leastNonzeroMagnitude),
    "nan": .double(.nan), "infinity": .double(.infinity),
    "yes": true, "no": false, "nothing": nil,
    "items": [
        ["name": "a<b", "price": 3, "tags": ["x", "y"], "children": []],
        ["name": "c&d", "price": 4.5, "tags": [], "children": [], "selected": true],
        ["name": "", "price": .int(Int.min), "tags": ["z"], "children": []],
    ],
    "pair": ["1", "2"],
    "list": [1, 2, 3, 4],
    "emptyList": [],
    "nested": ["a": ["b": ["c": "deep", "d": ["e": true]]]],
    "cart": ["count": 2, "lines": [["sku": "TEA-01", "quantity": 1], ["sku": "MUG-02", "quantity": 9]]],
]

/// The most items any list in `data` has: what one pass over a section can multiply by.
private let widestList = 4

/// The shop's own templates (all of Views/, by the names the views use, e.g. `partials/tabbar`),
/// loaded with the module's own `MustacheLibrary(directory:)`, plus a few small ones.
private let baseLibrary: MustacheLibrary = {
    let views = (getEnvironment("QUICKCART_ROOT") ?? ".") + "/Views"
    var library: MustacheLibrary
    do {
        library = try MustacheLibrary(directory: views)
    } catch {
        fail("cannot load \(views) (run from the repository root or set QUICKCART_ROOT): \(error)")
    }
    for (name, source) in [
        "row": "<li>{{name}}: {{price}}</li>\n",
        "indented": "  {{title}}\n  {{{title}}}\n",
        "blank": "",
        "tags": "{{#tags}}[{{.}}]{{/tags}}",
    ] {
        library.register(try! MustacheTemplate(string: source, name: name), named: name)
    }
    return library
}()

/// Beyond this many units of work (bytes copied, tags visited) a template is only parsed, not
/// rendered: sections over lists nest and partials recurse, so the output of a few hundred bytes
/// of template can grow exponentially. That is the template author's choice, not a defect, and
/// rendering it would only make the fuzzer time out.
private let renderBudget = 2_000_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let template: MustacheTemplate
    do {
        template = try MustacheTemplate(string: source, name: "fuzz")
    } catch {
        let lines = source.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        check(error.templateName == "fuzz" && !error.message.isEmpty, "bad error \(error)")
        check(error.line >= 1 && error.line <= lines && error.column >= 1, "error outside the source: \(error)")
        _ = error.description
        return 0
    }
    var library = baseLibrary
    library.register(template, named: "fuzz")
    guard renderCost(of: template, in: library) <= renderBudget else { return 0 }

    let first = template.render(data, partials: library)
    let second = library.render("fuzz", with: data)
    check(second == first, "two renders of one template differ")
    var buffer = Array("prefix".utf8)
    template.render(data, partials: library, into: &buffer)
    check(buffer.count == 6 + first.utf8.count && buffer.dropFirst(6).elementsEqual(first.utf8),
                 "render(into:) differs from render()")
    _ = template.render(MustacheValue.null, partials: nil)
    return 0
}

/// An upper bound of the work of rendering `template` against `data` with `library`.
private func renderCost(of template: MustacheTemplate, in library: MustacheLibrary) -> Int {
    let names = library.names
    let maximum = MustacheTemplate.maximumPartialDepth
    // cost[name] at depth d needs the costs at depth d + 1: fill from the deepest level up.
    var deeper: [String: Int] = [:]
    for depth in stride(from: maximum, through: 0, by: -1) {
        var current: [String: Int] = [:]
        for name in names {
            let nodes = library[name]!.nodes
            current[name] = cost(of: nodes) { partial in
                depth + 1 > maximum ? 0 : (deeper[partial] ?? 0)
            }
        }
        deeper = current
    }
    return cost(of: template.nodes) { deeper[$0] ?? 0 }
}

private func cost(of nodes: [Node], partial: (String) -> Int) -> Int {
    var total = 0
    for node in nodes {
        let step: Int
        switch node {
        case .text(let range): step = range.count + 1
        case .lineStart: step = 1
        case .variable: step = 64
        case .section(_, let children): step = saturatingMultiply(widestList, cost(of: children, partial: partial)) &+ 1
        case .invertedSection(_, let children): step = cost(of: children, partial: partial) &+ 1
        case .partial(let name, let indent, _): step = saturatingMultiply(indent.count + 1, partial(name)) &+ 1
        }
        total = min(total &+ step, 1 << 40)
    }
    return total
}

private func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? 1 << 40 : min(product, 1 << 40)
}

// MARK: - Environment (Fuzz/run exports QUICKCART_ROOT)

private func getEnvironment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
