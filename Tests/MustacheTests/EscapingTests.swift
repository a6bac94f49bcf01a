import Mustache
import Testing

struct EscapingTests {
    private func render(_ source: String, _ value: MustacheValue) throws -> String {
        try MustacheTemplate(string: source).render(value)
    }

    @Test func escapesAllFiveCharacters() throws {
        #expect(try render("{{v}}", ["v": "& < > \" '"]) == "&amp; &lt; &gt; &quot; &#39;")
    }

    @Test func escapesAdjacentAndRepeatedCharacters() throws {
        #expect(try render("{{v}}", ["v": "<<&&>>''\"\""]) == "&lt;&lt;&amp;&amp;&gt;&gt;&#39;&#39;&quot;&quot;")
    }

    @Test func leavesOtherTextAlone() throws {
        #expect(try render("{{v}}", ["v": "plain text = fine; 100% (ok) [x] {y}"]) == "plain text = fine; 100% (ok) [x] {y}")
        #expect(try render("[{{v}}]", ["v": ""]) == "[]")
    }

    @Test func keepsMultibyteUTF8Intact() throws {
        #expect(try render("{{v}}", ["v": "Grüße <b>☕️</b> & 'ok' 👩‍👩‍👧"]) == "Grüße &lt;b&gt;☕️&lt;/b&gt; &amp; &#39;ok&#39; 👩‍👩‍👧")
    }

    @Test func tripleMustacheAndAmpersandAreRaw() throws {
        let value: MustacheValue = ["v": "<a href='x'>&\"</a>"]
        #expect(try render("{{{v}}}", value) == "<a href='x'>&\"</a>")
        #expect(try render("{{& v }}", value) == "<a href='x'>&\"</a>")
        #expect(try render("{{=<% %>=}}<%{v}%>", value) == "<a href='x'>&\"</a>")
    }

    @Test func templateTextIsNeverEscaped() throws {
        #expect(try render("<p class=\"a\">&amp; {{v}}</p>", ["v": "<"]) == "<p class=\"a\">&amp; &lt;</p>")
    }
}
