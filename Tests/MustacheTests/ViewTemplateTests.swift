import Mustache
import Testing

/// Typed views on compiled templates: rendering must equal the dynamic renderer's, and a
/// template that does not fit its view must fail to compile, saying where.
struct ViewTemplateTests {
    struct Line: MustacheView {
        var name: String
        var quantity: Int
        var note: String?
        var inCart: Int?

        static let mustacheFields: MustacheFields<Line> = [
            "name": .text(\.name),
            "quantity": .int(\.quantity),
            "canDecrease": .bool { $0.quantity > 1 },
            "note": .text(\.note),
            "inCart": .int(\.inCart),
        ]
    }

    struct Links: MustacheView {
        var css: String
        static let mustacheFields: MustacheFields<Links> = ["css": .text(\.css)]
    }

    struct Page: MustacheView {
        var title: String
        var lines: [Line]
        var links: Links
        var banner: Links?
        var cents: Int

        static let mustacheFields: MustacheFields<Page> = [
            "title": .text(\.title),
            "lines": .list(\.lines),
            "links": .view(\.links),
            "banner": .optional(\.banner),
            "total": .custom { page, output in
                output.append(UInt8(ascii: "$"))
                output.append(decimal: page.cents / 100)
                output.append(".")
                output.append(decimal: page.cents % 100)
            },
        ]
    }

    struct Layout: MustacheView {
        var csrf: String
        var title: String
        static let mustacheFields: MustacheFields<Layout> = ["csrf": .text(\.csrf), "title": .text(\.title)]
    }

    struct Form: MustacheView {
        let token: MustacheCheckedText
        static let mustacheFields: MustacheFields<Form> = ["token": .text(\.token)]
    }

    struct Card: MustacheView {
        let name: MustacheText
        static let mustacheFields: MustacheFields<Card> = ["name": .text(\.name)]
    }

    /// A library of `templates`, and its template `name` compiled for `View`.
    private static func compiled<View: MustacheView>(
        _ name: String, in templates: [String: String], for _: View.Type
    ) throws -> (MustacheLibrary, MustacheViewTemplate<View>) {
        let library = try MustacheLibrary(templates: templates)
        return (library, try MustacheViewTemplate<View>(named: name, in: library))
    }

    /// What compiling the template `name` of `templates` for `View` fails with.
    private static func bindingError<View: MustacheView>(
        compiling name: String, in templates: [String: String], for _: View.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> MustacheBindingError {
        let library = try MustacheLibrary(templates: templates)
        return try #require(throws: MustacheBindingError.self, sourceLocation: sourceLocation) { try MustacheViewTemplate<View>(named: name, in: library) }
    }

    static let page = Page(
        title: "Cart <&> \"x\" 'y'",
        lines: [
            Line(name: "Tea & <cake>", quantity: 1, note: nil, inCart: 3),
            Line(name: "Café “crème”", quantity: 4, note: "<b>hot</b>", inCart: nil),
        ],
        links: Links(css: "/a.css?v=1&b=2"),
        banner: nil,
        cents: 12345
    )

    static let templates = [
        "page": """
            <h1>{{title}}</h1><link href="{{links.css}}">{{{title}}}{{&title}}
            <ul>
            {{#lines}}
              {{>line}}
            {{/lines}}
            </ul>
            {{^lines}}empty{{/lines}}
            {{#banner}}<p>{{css}} {{title}}</p>{{/banner}}{{^banner}}no banner{{/banner}}
            {{#links}}{{css}}/{{title}}{{/links}} {{total}} {{! a comment }}
            {{=<% %>=}}<%title%><%={{ }}=%>
            """,
        "line": """
            <li>{{name}} ×{{quantity}}{{^canDecrease}} min{{/canDecrease}} {{canDecrease}}
            {{#note}}[{{{note}}}|{{note}}]{{/note}}{{#inCart}}({{inCart}} in cart){{/inCart}}{{^inCart}}-{{/inCart}} {{title}}</li>

            """,
        "content": "<form>{{csrf}}|{{title}}|{{#lines}}{{name}}:{{csrf}};{{/lines}}</form>",
    ]

    @Test func rendersAsTheDynamicRendererDoes() throws {
        let (library, template) = try Self.compiled("page", in: Self.templates, for: Page.self)
        let typed = template.render(Self.page)
        #expect(typed == library.render("page", with: Self.page))
        #expect(typed.contains("<li>Tea &amp; &lt;cake&gt; ×1 min false\n  (3 in cart) Cart &lt;&amp;&gt; &quot;x&quot; &#39;y&#39;</li>"))
        #expect(typed.contains("[<b>hot</b>|&lt;b&gt;hot&lt;/b&gt;]"))
        #expect(typed.contains("$123.45"))

        var withBanner = Self.page
        withBanner.banner = Links(css: "banner.css")
        withBanner.lines = []
        #expect(template.render(withBanner) == library.render("page", with: withBanner))
        #expect(template.render(withBanner).contains("<p>banner.css Cart"))
    }

    @Test func appendsToTheOutputGrowingIt() throws {
        let (_, template) = try Self.compiled("t", in: ["t": "{{title}}!"], for: Layout.self)
        var output = MustacheOutput(capacity: 1)
        output.append("<<")
        let long = String(repeating: "a&b ", count: 100)
        template.render(Layout(csrf: "", title: long), into: &output)
        output.append(decimal: -1234567)
        output.append(decimal: 0)
        output.append(decimal: Int.min)
        #expect(String(decoding: output.finish(), as: UTF8.self) == "<<" + String(repeating: "a&amp;b ", count: 100) + "!-12345670-9223372036854775808")
    }

    @Test func escapesAsTheDynamicRendererDoesAtEveryPosition() throws {
        let (library, template) = try Self.compiled("t", in: ["t": "{{title}}|{{{title}}}"], for: Layout.self)
        for special in ["&", "<", ">", "\"", "'", "é", "“"] {
            for length in 0..<20 {
                for position in 0...length {
                    var characters = Array(repeating: "a", count: length)
                    characters.insert(special, at: position)
                    let layout = Layout(csrf: "", title: characters.joined() + "0123456789=;:")
                    #expect(template.render(layout) == library.render("t", with: layout))
                }
            }
        }
    }

    @Test func writesIntoTheArrayItMakesAndGathersWhatOutgrowsIt() throws {
        let (_, template) = try Self.compiled("t", in: ["t": "{{title}}!"], for: Layout.self)
        let long = String(repeating: "a&b ", count: 100)
        let expected = Array((String(repeating: "a&amp;b ", count: 100) + "!").utf8)
        for capacity in [0, 64, expected.count - 1, expected.count, expected.count + 1, 4096] {
            let bytes = MustacheOutput.bytes(capacity: capacity) { template.render(Layout(csrf: "", title: long), into: &$0) }
            #expect(bytes == expected, "capacity \(capacity)")
        }
        #expect(MustacheOutput.bytes(capacity: 10) { _ in }.isEmpty)
    }

    @Test func printsNumbersOfEveryLength() {
        var numbers = [0, 9, 10, 99, 100, 101, 999, 1000, 12_345, Int.max, Int.min, -1, -10, -99, -100]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1, -power]
        }
        for number in numbers {
            var output = MustacheOutput(capacity: 1)
            output.append(decimal: number)
            #expect(String(decoding: output.finish(), as: UTF8.self) == String(number))
        }
    }

    @Test func textMadeOnceEscapesEveryASCIICharacterAsTheDynamicRendererDoes() throws {
        let (library, template) = try Self.compiled("card", in: ["card": "{{name}}|{{{name}}}"], for: Card.self)
        for byte in UInt8(32)..<UInt8(127) {
            for position in [0, 5, 8, 15] {
                var text = Array(repeating: UInt8(ascii: "b"), count: 17)
                text[position] = byte
                let card = Card(name: MustacheText(String(decoding: text, as: UTF8.self)))
                #expect(template.render(card) == library.render("card", with: card))
            }
        }
    }

    @Test func checkedTextPrintsAsItsString() throws {
        let (library, template) = try Self.compiled("form", in: ["form": "{{token}}|{{{token}}}"], for: Form.self)
        #expect(template.render(Form(token: MustacheCheckedText("0123abcd"))) == "0123abcd|0123abcd")
        #expect(template.render(Form(token: MustacheCheckedText("/search?q=a&b"))) == "/search?q=a&amp;b|/search?q=a&b")
        for text in ["", "x", "“quoted” 'single'", "a<b>c", String(repeating: "token", count: 9) + "\""] {
            let form = Form(token: MustacheCheckedText(text))
            #expect(template.render(form) == library.render("form", with: form))
        }
    }

    @Test func textMadeOncePrintsAsItsString() throws {
        let error = try Self.bindingError(compiling: "card", in: ["card": "{{name}}|{{{name}}}|{{#name}}x{{/name}}"], for: Card.self)
        #expect(error.message == "section 'name' is over String; a section needs a list, a Bool, an optional or a view")
        let printing = try MustacheLibrary(templates: ["card": "{{name}}|{{{name}}}"])
        let card = Card(name: MustacheText("Tea & <cake> “x”"))
        let typed = try MustacheViewTemplate<Card>(named: "card", in: printing).render(card)
        #expect(typed == "Tea &amp; &lt;cake&gt; “x”|Tea & <cake> “x”")
        #expect(typed == printing.render("card", with: card))
    }

    @Test func enclosedViewLooksOutwardsForNamesItLacks() throws {
        let library = try MustacheLibrary(templates: Self.templates)
        let template = try MustacheEnclosedViewTemplate<Layout, Page>(named: "content", in: library)
        var output = MustacheOutput()
        template.render(Self.page, in: Layout(csrf: "tok", title: "outer"), into: &output)
        // The page's own title wins over the layout's, as the innermost context does.
        #expect(String(decoding: output.finish(), as: UTF8.self) == "<form>tok|Cart &lt;&amp;&gt; &quot;x&quot; &#39;y&#39;|Tea &amp; &lt;cake&gt;:tok;Café “crème”:tok;</form>")
    }

    /// A page whose shop and stylesheet are the same on every page of the process.
    struct Head: MustacheView {
        var title: String
        var shop: Card
        var links: Links
        var lines: [Line]

        static let mustacheFields: MustacheFields<Head> = [
            "title": .text(\.title),
            "shop": .constant(.view(\.shop)),
            "links": .constant(.view(\.links)),
            "lines": .list(\.lines),
        ]
    }

    @Test func fixedTemplatePrintsConstantFieldsOnceAndTheRestPerRender() throws {
        let library = try MustacheLibrary(templates: [
            "head": """
                <title>{{title}} · {{shop.name}}</title>{{{shop.name}}}
                  {{>link}}
                {{#lines}}<li>{{name}} {{links.css}}</li>{{/lines}}{{#shop}}[{{name}}]{{/shop}}
                """,
            "link": "<link href=\"{{links.css}}\">\n<b>{{title}}</b>\n",
        ])
        let template = try MustacheViewTemplate<Head>(named: "head", in: library)
        let sample = Head(title: "unused", shop: Card(name: MustacheText("Tea & <cake>")), links: Links(css: "/a.css?v=1&b=2"), lines: [])
        let fixed = template.fixing(sample)
        for (title, lines) in [("Cart <1>", []), ("Home", [Self.page.lines[0]]), ("", Self.page.lines)] {
            let head = Head(title: title, shop: sample.shop, links: sample.links, lines: lines)
            #expect(fixed.render(head) == template.render(head))
            #expect(fixed.render(head) == library.render("head", with: head))
        }
        // The constants are bytes of the fixed template now: another shop in the view is not read.
        let other = Head(title: "T", shop: Card(name: MustacheText("Other")), links: Links(css: "/b.css"), lines: [Self.page.lines[1]])
        #expect(fixed.render(other) == """
            <title>T · Tea &amp; &lt;cake&gt;</title>Tea & <cake>
              <link href="/a.css?v=1&amp;b=2">
              <b>T</b>
            <li>Café “crème” /a.css?v=1&amp;b=2</li>[Other]
            """)
        #expect(template.render(other).hasPrefix("<title>T · Other</title>Other"))
    }

    static let broken: [FailingTemplate] = [
        FailingTemplate(source: "<h1>{{title}}</h1>\n<p>{{nmae}}</p>", message: "no field 'nmae' in Page", line: 2, column: 4, name: "nmae"),
        FailingTemplate(
            source: "{{#lines}}\n  {{quantty}}\n{{/lines}}", message: "no field 'quantty' in Line or Page", line: 2, column: 3, name: "quantty"
        ),
        FailingTemplate(
            source: "x\n{{#title}}!{{/title}}",
            message: "section 'title' is over String; a section needs a list, a Bool, an optional or a view",
            line: 2, column: 1, name: "title"
        ),
        FailingTemplate(
            source: "{{^total}}!{{/total}}",
            message: "inverted section 'total' is over custom text, which is never empty; it needs a list, a Bool or an optional",
            line: 1, column: 1, name: "total"
        ),
        FailingTemplate(
            source: "{{lines}}", message: "'lines' is [Line], which cannot be printed; use a section to go inside it", line: 1, column: 1, name: "lines"
        ),
        FailingTemplate(source: "{{links.js}}", message: "'links.js': no field 'js' in Links", line: 1, column: 1, name: "links.js"),
        FailingTemplate(source: "{{title.size}}", message: "'title.size': cannot look inside String for 'size'", line: 1, column: 1, name: "title.size"),
        FailingTemplate(source: "{{#lines}}{{.}}{{/lines}}", message: "the implicit iterator '{{.}}' has no type to print; name a field", line: 1, column: 11, name: "."),
        FailingTemplate(source: "a\n\n    {{> partials/missing}}\n", message: "no partial named 'partials/missing'", line: 3, column: 5, name: "partials/missing"),
    ]

    @Test("A template that does not fit its view fails to compile, naming line, column and field", arguments: broken)
    func brokenTemplate(_ broken: FailingTemplate) throws {
        let error = try Self.bindingError(compiling: "broken", in: ["broken": broken.source], for: Page.self)
        #expect(error.message == broken.message)
        #expect(error.templateName == "broken")
        #expect(error.line == broken.line)
        #expect(error.column == broken.column)
        #expect(error.name == broken.name)
        #expect(error.description == "broken:\(broken.line):\(broken.column): \(broken.message)")
    }

    @Test func errorInAPartialNamesThePartial() throws {
        let error = try Self.bindingError(compiling: "page", in: ["page": "{{#lines}}\n{{>row}}\n{{/lines}}", "row": "<li>\n{{price}}</li>"], for: Page.self)
        #expect(error.description == "row:2:1: no field 'price' in Line or Page")
    }

    @Test func missingTemplateFails() throws {
        let error = try Self.bindingError(compiling: "pgae", in: ["page": "{{title}}"], for: Page.self)
        #expect(error.description == "pgae: no template named 'pgae' for Page")
    }

    @Test func partialThatIncludesItselfFails() throws {
        let error = try Self.bindingError(compiling: "loop", in: ["loop": "x{{>loop}}"], for: Page.self)
        #expect(error.message.hasPrefix("partials nest deeper than 64"))
    }

    @Test func viewIsAlsoDynamicData() {
        let line = Line(name: "Tea", quantity: 2, note: nil, inCart: 1)
        #expect(line.mustacheValue == ["name": "Tea", "quantity": 2, "canDecrease": true, "note": nil, "inCart": 1])
    }
}
