import Mustache
import Testing

struct RenderTests {
    private func render(_ source: String, _ value: MustacheValue, partials: MustacheLibrary? = nil) throws -> String {
        try MustacheTemplate(string: source).render(value, partials: partials)
    }

    @Test func renderIntoBufferMatchesRenderToString() throws {
        let partials = try MustacheLibrary(templates: ["row": "  <li>{{name}} × {{qty}}</li>\n"])
        let template = try MustacheTemplate(string: """
            <h1>{{title}}</h1>
            <ul>
              {{#items}}
              {{>row}}
              {{/items}}
            </ul>
            {{^items}}<p>Empty & sad</p>{{/items}}

            """)
        let value: MustacheValue = ["title": "Ça & <va>", "items": [["name": "Tea", "qty": 2], ["name": "Cake", "qty": 1]]]

        let string = template.render(value, partials: partials)
        var buffer: [UInt8] = []
        template.render(value, partials: partials, into: &buffer)

        #expect(String(decoding: buffer, as: UTF8.self) == string)
        #expect(string == """
            <h1>Ça &amp; &lt;va&gt;</h1>
            <ul>
                <li>Tea × 2</li>
                <li>Cake × 1</li>
            </ul>


            """)
    }

    @Test func renderIntoBufferAppends() throws {
        var buffer = Array("HTTP body: ".utf8)
        try MustacheTemplate(string: "{{a}}").render(["a": 1] as MustacheValue, partials: nil, into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "HTTP body: 1")
    }

    @Test func numbersAndBooleansInterpolate() throws {
        let value: MustacheValue = [
            "int": 85, "negative": -7, "min": .int(Int.min), "decimal": 1.21, "integral": 2.0,
            "negativeDecimal": -0.5, "huge": 1e20, "yes": true, "no": false,
        ]
        #expect(try render("{{int}} {{negative}} {{min}}", value) == "85 -7 -9223372036854775808")
        #expect(try render("{{decimal}} {{integral}} {{negativeDecimal}} {{huge}}", value) == "1.21 2 -0.5 1e+20")
        #expect(try render("{{yes}} {{no}}", value) == "true false")
    }

    @Test func containersAndNullInterpolateAsNothing() throws {
        let value: MustacheValue = ["list": [1, 2], "hash": ["a": 1], "nothing": nil]
        #expect(try render("[{{list}}|{{hash}}|{{nothing}}|{{missing}}]", value) == "[|||]")
    }

    @Test func truthinessFollowsTheSpec() throws {
        let value: MustacheValue = ["zero": 0, "empty": "", "none": [], "null": nil, "off": false, "hash": [:]]
        #expect(try render("{{#zero}}Z{{/zero}}{{#empty}}E{{/empty}}{{#hash}}H{{/hash}}", value) == "ZEH")
        #expect(try render("{{#none}}N{{/none}}{{#null}}U{{/null}}{{#off}}F{{/off}}{{#missing}}M{{/missing}}", value) == "")
        #expect(try render("{{^none}}N{{/none}}{{^null}}U{{/null}}{{^off}}F{{/off}}{{^zero}}Z{{/zero}}", value) == "NUF")
    }

    @Test func contextStackLookupWalksOutwards() throws {
        let value: MustacheValue = [
            "currency": "€",
            "order": ["id": 7, "lines": [["name": "Tea", "price": 3], ["name": "Cake", "price": 4, "currency": "$"]]],
        ]
        let source = "{{#order}}#{{id}}:{{#lines}} {{name}} {{price}}{{currency}} (#{{id}}){{/lines}}{{/order}}"
        #expect(try render(source, value) == "#7: Tea 3€ (#7) Cake 4$ (#7)")
    }

    @Test func implicitIteratorAndDottedNames() throws {
        let value: MustacheValue = ["tags": ["new", "<sale>"], "shop": ["address": ["city": "Lyon"]]]
        #expect(try render("{{#tags}}[{{.}}]{{/tags}} {{shop.address.city}}", value) == "[new][&lt;sale&gt;] Lyon")
    }

    @Test func nestedStandalonePartialsAccumulateIndentation() throws {
        let partials = try MustacheLibrary(templates: [
            "outer": "<div>\n  {{>inner}}\n</div>\n",
            "inner": "<p>\n{{text}}\n</p>\n",
        ])
        let output = try render("<body>\n  {{>outer}}\n</body>\n", ["text": "a\nb"], partials: partials)
        // Indentation applies to template lines, not to lines inside interpolated data.
        #expect(output == "<body>\n  <div>\n    <p>\n    a\nb\n    </p>\n  </div>\n</body>\n")
    }

    @Test func selfRecursivePartialStopsAtMaximumDepth() throws {
        let library = try MustacheLibrary(templates: ["loop": "x{{>loop}}"])
        let output = try #require(library.render("loop", with: [:] as MustacheValue))
        #expect(output == String(repeating: "x", count: MustacheTemplate.maximumPartialDepth + 1))
    }

    @Test func dataDrivenRecursionRendersFully() throws {
        let library = try MustacheLibrary(templates: ["node": "{{name}}{{#children}}({{>node}}){{/children}}"])
        // Leaves need their own empty `children`: otherwise the lookup finds the parent's (spec behaviour).
        let tree: MustacheValue = [
            "name": "a",
            "children": [["name": "b", "children": [["name": "c", "children": []]]], ["name": "d", "children": []]],
        ]
        #expect(library.render("node", with: tree) == "a(b(c))(d)")
    }

    @Test func missingPartialsRenderAsNothing() throws {
        #expect(try render("[{{>nope}}]", [:]) == "[]")
        #expect(try render("[{{>nope}}]", [:], partials: MustacheLibrary()) == "[]")
    }

    @Test func parsedTemplatesRenderConcurrently() async throws {
        let template = try MustacheTemplate(string: "{{#items}}{{.}},{{/items}}")
        let outputs = await withTaskGroup(of: String.self) { group in
            for task in 0..<8 {
                group.addTask { template.render(["items": .array((0..<3).map { .int($0 + task) })] as MustacheValue) }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(outputs.count == 8)
        #expect(outputs.contains("0,1,2,"))
    }

    @Test func literalsBuildValues() {
        let value: MustacheValue = ["a": [1, 2.5, "s", true, nil], "b": "x \(1 + 1)"]
        #expect(value == .object([
            "a": .array([.int(1), .double(2.5), .string("s"), .bool(true), .null]),
            "b": .string("x 2"),
        ]))
        let repeated: MustacheValue = ["k": 1, "k": 2]
        #expect(repeated == .object(["k": .int(2)]))
    }
}
