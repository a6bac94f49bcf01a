import Mustache

/// Arbitrary JSON decoded into a `MustacheValue`, for spec data.
struct JSONValue: Decodable {
    let value: MustacheValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before numbers and Int before Double, so `true` and `85` keep their kinds.
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            value = .int(number)
        } else if let number = try? container.decode(Double.self) {
            value = .double(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            value = .array(array.map(\.value))
        } else {
            value = .object(MustacheObject(try container.decode([String: JSONValue].self).mapValues(\.value)))
        }
    }
}

extension MustacheValue {
    /// Compact JSON-like text for failure messages.
    var jsonDescription: String {
        switch self {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .string(let string): String(reflecting: string)
        case .array(let items): "[" + items.map(\.jsonDescription).joined(separator: ", ") + "]"
        case .object(let hash):
            "{" + hash.sorted { $0.key < $1.key }
                .map { String(reflecting: $0.key) + ": " + $0.value.jsonDescription }
                .joined(separator: ", ") + "}"
        }
    }
}
