/// A text the API takes (a query parameter, a body's string) checked as the OpenAPI document's
/// schema states it, by JSON Schema's rules, so what the document refuses the code refuses too.
enum APIText {
    /// Whether `text`, as sent, has at most `maxLength` Unicode code points (what JSON Schema's
    /// `maxLength` counts, not characters as a person sees them) and no control character (C0,
    /// DEL or C1) anywhere, as the pattern `^[^\x00-\x1F\x7F-\x9F]*$` asks. It is checked before
    /// trimming: blanks or a line break at the ends are part of what was sent.
    static func admits(_ text: String, maxLength: Int) -> Bool {
        // At most four UTF-8 bytes a code point: a longer text is refused without counting.
        text.utf8.count <= maxLength * 4 && text.unicodeScalars.count <= maxLength && !text.containsControlCharacter
    }
}
