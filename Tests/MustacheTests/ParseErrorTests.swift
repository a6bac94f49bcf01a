import Mustache
import Testing

struct ParseErrorTests {
    static let cases: [FailingTemplate] = [
        FailingTemplate(source: "Hello {{name", message: "unclosed tag '{{': missing '}}'", line: 1, column: 7),
        FailingTemplate(source: "a\nb {{{raw}}\n", message: "unclosed tag '{{{': missing '}}}'", line: 2, column: 3),
        FailingTemplate(source: "x\n  {{#items}}\n  {{name}}\n", message: "unclosed section 'items': missing {{/items}}", line: 2, column: 3),
        FailingTemplate(
            source: "{{#a}}\n{{#b}}\n{{/a}}",
            message: "closing tag 'a' does not match open section 'b' (line 2, column 1)",
            line: 3, column: 1
        ),
        FailingTemplate(source: "ok\n\n   {{/a}}", message: "closing tag 'a' has no open section", line: 3, column: 4),
        FailingTemplate(
            source: "{{=<% =}}",
            message: "invalid set-delimiter tag '=<% =': expected two delimiters separated by whitespace, as in {{=<% %>=}}",
            line: 1, column: 1
        ),
        FailingTemplate(
            source: "a {{=< % >=}}",
            message: "invalid set-delimiter tag '=< % >=': expected two delimiters separated by whitespace, as in {{=<% %>=}}",
            line: 1, column: 3
        ),
        FailingTemplate(
            source: "{{=<= =>=}}",
            message: "invalid set-delimiter tag '=<= =>=': expected two delimiters separated by whitespace, as in {{=<% %>=}}",
            line: 1, column: 1
        ),
        FailingTemplate(source: "{{=<% %>}}", message: "unclosed tag '{{=': missing '=}}'", line: 1, column: 1),
        FailingTemplate(source: "{{=<% %>=}}\n<%#a%>", message: "unclosed section 'a': missing <%/a%>", line: 2, column: 1),
        FailingTemplate(source: "{{=<% %>=}}\n<%a", message: "unclosed tag '<%': missing '%>'", line: 2, column: 1),
        FailingTemplate(source: "{{}}", message: "empty tag", line: 1, column: 1),
        FailingTemplate(source: "{{#  }}{{/}}", message: "empty tag", line: 1, column: 1),
        FailingTemplate(source: "{{first name}}", message: "invalid tag name 'first name': names cannot contain whitespace", line: 1, column: 1),
        FailingTemplate(source: "{{a..b}}", message: "invalid tag name 'a..b': empty part between dots", line: 1, column: 1),
        FailingTemplate(source: "{{.a}}", message: "invalid tag name '.a': empty part between dots", line: 1, column: 1),
        FailingTemplate(
            source: "{{a {{b}}",
            message: "invalid tag name 'a {{b': is an earlier tag missing its '}}'?",
            line: 1, column: 1
        ),
        FailingTemplate(
            source: "{{a{{b}}",
            message: "invalid tag name 'a{{b': is an earlier tag missing its '}}'?",
            line: 1, column: 1
        ),
        FailingTemplate(source: "{{> }}", message: "partial tag has no name", line: 1, column: 1),
        // Columns count characters, not UTF-8 bytes.
        FailingTemplate(source: "Grüße, ☕️ {{#x}}", message: "unclosed section 'x': missing {{/x}}", line: 1, column: 10),
    ]

    @Test(arguments: cases)
    func reportsMessageAndPosition(_ malformed: FailingTemplate) throws {
        let error = try #require(throws: MustacheParseError.self) {
            try MustacheTemplate(string: malformed.source, name: "page")
        }
        #expect(error.message == malformed.message)
        #expect(error.templateName == "page")
        #expect(error.line == malformed.line)
        #expect(error.column == malformed.column)
    }

    @Test func descriptionNamesTemplateLineAndColumn() throws {
        let error = try #require(throws: MustacheParseError.self) {
            try MustacheTemplate(string: "<ul>\n  {{#items}}<li>{{name}}</li>\n</ul>", name: "cart")
        }
        #expect(error.description == "cart:2:3: unclosed section 'items': missing {{/items}}")
        #expect(String(describing: error) == error.description)
    }

    @Test func defaultTemplateNameIsInline() throws {
        let error = try #require(throws: MustacheParseError.self) { try MustacheTemplate(string: "{{") }
        #expect(error.templateName == "inline")
    }

    @Test func libraryReportsTheFailingTemplateName() throws {
        let error = try #require(throws: MustacheParseError.self) {
            try MustacheLibrary(templates: ["good": "{{a}}", "partials/bad": "ok\n{{#a}}"])
        }
        #expect(error.templateName == "partials/bad")
        #expect(error.line == 2)
    }

    @Test func wellFormedEdgeCasesParse() throws {
        // Comments may hold anything but the closing delimiter; braces in text are fine.
        _ = try MustacheTemplate(string: "{{! {{ comment }}{ } {{ a }}{{{ b }}}{{& c.d }}{{#e}}{{/ e }}{{=| |=}}|f|")
        _ = try MustacheTemplate(string: "")
        _ = try MustacheTemplate(string: "no tags at all")
    }
}
