/// Writes metrics in the Prometheus text exposition format (version 0.0.4): each family's
/// `# HELP` and `# TYPE` lines, then its samples, label values escaped as the format asks.
struct MetricsText {
    /// The media type Prometheus asks for this format with.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""

    /// Starts a family: `kind` is `counter`, `gauge` or `histogram`.
    mutating func family(_ name: String, _ kind: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind)\n"
    }

    /// One sample of a whole number.
    mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: Int) {
        text += name + Self.labels(labels) + " " + String(value) + "\n"
    }

    /// One sample of a real number.
    mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: Double) {
        text += name + Self.labels(labels) + " " + Self.number(value) + "\n"
    }

    /// A number as Prometheus reads it: `+Inf`, or the shortest decimal that is exactly `value`.
    static func number(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    private static func labels(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// A label value with `\`, `"` and line breaks escaped.
    static func escaped(_ value: String) -> String {
        value.replacingScalars { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\n"
            default: nil
            }
        }
    }
}
