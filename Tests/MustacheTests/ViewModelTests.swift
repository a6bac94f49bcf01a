import Mustache
import Testing

struct ViewModelTests {
    struct LineItem: MustacheConvertible {
        var name: String
        var quantity: Int
        var priceCents: Int64

        var mustacheValue: MustacheValue {
            ["name": name.mustacheValue, "quantity": quantity.mustacheValue, "price": priceCents.mustacheValue]
        }
    }

    struct CartPage: MustacheConvertible {
        var customer: String?
        var items: [LineItem]
        var discount: Double?
        var flags: [String: Bool]

        var mustacheValue: MustacheValue {
            [
                "customer": customer.mustacheValue,
                "items": items.mustacheValue,
                "discount": discount.mustacheValue,
                "flags": flags.mustacheValue,
            ]
        }
    }

    static let template = """
        {{#customer}}Hi {{.}}!{{/customer}}{{^customer}}Hi guest!{{/customer}}
        {{#items}}
        - {{quantity}} × {{name}} @ {{price}}
        {{/items}}
        {{#discount}}Discount: {{.}}{{/discount}}{{#flags.express}} (express){{/flags.express}}
        """

    @Test func structAdoptingMustacheConvertibleRenders() throws {
        let page = CartPage(
            customer: "Zoë",
            items: [LineItem(name: "Tea & biscuits", quantity: 2, priceCents: 350), LineItem(name: "Cake", quantity: 1, priceCents: 420)],
            discount: 0.1,
            flags: ["express": true]
        )
        let output = try MustacheTemplate(string: Self.template).render(page)
        #expect(output == "Hi Zoë!\n- 2 × Tea &amp; biscuits @ 350\n- 1 × Cake @ 420\nDiscount: 0.1 (express)")
    }

    @Test func optionalsAndEmptyCollectionsAreFalsy() throws {
        let page = CartPage(customer: nil, items: [], discount: nil, flags: [:])
        let output = try MustacheTemplate(string: Self.template).render(page)
        #expect(output == "Hi guest!\n")
    }

    @Test func standardTypesConvert() {
        #expect("a".mustacheValue == .string("a"))
        #expect("a b".split(separator: " ")[1].mustacheValue == .string("b"))
        #expect(3.mustacheValue == .int(3))
        #expect(Int64(4).mustacheValue == .int(4))
        #expect(1.5.mustacheValue == .double(1.5))
        #expect(false.mustacheValue == .bool(false))
        #expect(Optional<Int>.none.mustacheValue == .null)
        #expect(Optional(2).mustacheValue == .int(2))
        #expect([1, 2].mustacheValue == .array([.int(1), .int(2)]))
        #expect(["k": [true]].mustacheValue == .object(["k": .array([.bool(true)])]))
        #expect(MustacheValue.string("x").mustacheValue == .string("x"))
    }

    @Test func standardTypesRenderDirectly() throws {
        #expect(try MustacheTemplate(string: "{{.}}").render("<hi>") == "&lt;hi&gt;")
        #expect(try MustacheTemplate(string: "{{#.}}{{.}};{{/.}}").render([1, 2, 3]) == "1;2;3;")
        #expect(try MustacheTemplate(string: "{{name}}").render(["name": "Joe"]) == "Joe")
    }
}
