import Testing

/// A template that fails, with what the failure says: its message, where (line and column, from 1)
/// and, for a template that does not fit its view, the name it stumbled on. The parse and the
/// binding tests take their cases from tables of these.
struct FailingTemplate: Sendable, CustomTestStringConvertible {
    let source: String
    let message: String
    let line: Int
    let column: Int
    var name: String? = nil
    var testDescription: String { String(reflecting: source) }
}
