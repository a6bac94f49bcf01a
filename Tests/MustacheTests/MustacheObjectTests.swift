import Mustache
import Testing

struct MustacheObjectTests {
    @Test func setsReplacesAndRemovesNames() {
        var object: MustacheObject = ["name": "Tea", "price": "3.50"]
        object["inCart"] = 2
        object["name"] = "Green tea"
        object["price"] = nil
        #expect(object["name"] == .string("Green tea"))
        #expect(object["inCart"] == .int(2))
        #expect(object["price"] == nil)
        #expect(object.count == 2)
        #expect(object.map(\.key) == ["name", "inCart"], "entries keep the order they were first set in")
    }

    @Test func aRepeatedLiteralKeyKeepsItsLastValue() {
        let object: MustacheObject = ["a": 1, "b": 2, "a": 3]
        #expect(object.count == 2)
        #expect(object["a"] == .int(3))
    }

    @Test func namesWithTheSameLengthAndEndsAreToldApart() {
        // Equal fingerprints (length, first and last byte) must still compare the text.
        let object: MustacheObject = ["cart": 1, "curt": 2, "c": 3, "": 4]
        #expect(object["cart"] == .int(1))
        #expect(object["curt"] == .int(2))
        #expect(object["cort"] == nil)
        #expect(object["c"] == .int(3))
        #expect(object[""] == .int(4))
        #expect(MustacheTemplate.render("{{curt}}{{cart}}{{cort}}", object) == "21")
    }

    @Test func equalityIgnoresOrderLikeAHash() {
        let one: MustacheObject = ["a": 1, "b": "two"]
        let other: MustacheObject = ["b": "two", "a": 1]
        #expect(one == other)
        #expect(one != ["a": 1])
        #expect(one != ["a": 1, "b": "three"])
        #expect(MustacheObject(["a": 1, "b": "two"]) == one)
    }
}

private extension MustacheTemplate {
    static func render(_ source: String, _ object: MustacheObject) -> String {
        (try? MustacheTemplate(string: source).render(MustacheValue.object(object))) ?? "parse error"
    }
}
