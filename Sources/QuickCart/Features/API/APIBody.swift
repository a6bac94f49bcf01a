import MicroHTTP

/// A request's JSON body, read strictly: `Content-Type: application/json`, at most
/// ``maximumBytes``, UTF-8, one JSON object whose members are exactly those the request takes,
/// each of its declared type. Anything else is refused with a problem naming what is wrong
/// (and, for a member, its name in `field`) before anything is changed.
///
/// ```swift
/// let body = try APIBody.read(request.http, fields: ["productId": .string, "quantity": .integer], required: ["productId"])
/// let quantity = try body.integer("quantity") ?? 1
/// ```
struct APIBody {
    /// What a member's value must be. Numbers are whole numbers: ids are strings, money is a
    /// decimal string, and a quantity sent as `"2"` or `2.0` is refused, not read.
    indirect enum FieldType: Equatable, Sendable {
        case string
        case integer
        case object([String: FieldType])
        /// An array of at most ``maximumElements`` values of one type.
        case array(FieldType)

        var name: String {
            switch self {
            case .string: "a string"
            case .integer: "a whole number"
            case .object: "an object"
            case .array: "an array"
            }
        }
    }

    /// The most bytes a request body may have.
    static let maximumBytes = 16 * 1024
    /// The most values an array member may hold.
    static let maximumElements = 100

    private let members: [String: JSONText]

    private init(members: [String: JSONText]) {
        self.members = members
    }

    /// Reads the body of `request`. An empty body reads as `{}` unless `required` names a
    /// member (or `needsBody`); then it is refused.
    static func read(_ request: Request, fields: [String: FieldType], required: Set<String> = [], needsBody: Bool = false) throws(APIProblem) -> APIBody {
        let contentTypes = request.headers.values(named: "Content-Type")
        let contentType = contentTypes.first
        if request.body.count > maximumBytes {
            throw APIProblem(.bodyTooLarge, "The request body is \(request.body.count) bytes; at most \(maximumBytes) are accepted.")
        }
        if contentTypes.count > 1 {
            // Which one the body follows would be a guess.
            throw APIProblem(.unsupportedMediaType, "The body must be sent with one Content-Type: application/json; this request has \(contentTypes.count).")
        }
        if let contentType, !isJSON(contentType) {
            throw APIProblem(.unsupportedMediaType, "The body must be sent as application/json, not \(LogLine.printable(contentType, limit: 80)).")
        }
        if request.body.isEmpty {
            guard required.isEmpty, !needsBody else {
                throw APIProblem(.invalidJSON, "This request needs a JSON object as its body, and it has none.")
            }
            return APIBody(members: [:])
        }
        if contentType == nil {
            throw APIProblem(.unsupportedMediaType, "The body must be sent with Content-Type: application/json.")
        }
        guard let text = String(validating: request.body, as: UTF8.self) else {
            throw APIProblem(.invalidJSON, "The body is not valid UTF-8.")
        }
        let value: JSONText
        do {
            value = try JSONText.parse(text)
        } catch {
            throw APIProblem(.invalidJSON, "The body is not JSON: line \(error.line), column \(error.column): \(error.message).")
        }
        let members = try checked(value, fields: fields, path: "")
        for name in required.sorted() where members[name] == nil {
            throw APIProblem(.invalidBody, "The field “\(name)” is required.", field: name)
        }
        return APIBody(members: members)
    }

    /// The members of an object, each known and of its type.
    private static func checked(_ value: JSONText, fields: [String: FieldType], path: String) throws(APIProblem) -> [String: JSONText] {
        guard case .object(let list, _) = value else {
            throw APIProblem(.invalidBody, path.isEmpty ? "The body must be a JSON object." : "“\(path)” must be an object.", field: path.isEmpty ? nil : path)
        }
        var members: [String: JSONText] = [:]
        for member in list {
            let name = path.isEmpty ? member.name : path + "." + member.name
            let shown = LogLine.printable(name, limit: 60)
            guard members[member.name] == nil else { throw APIProblem(.invalidBody, "The field “\(shown)” is given twice.", field: shown) }
            guard let type = fields[member.name] else {
                throw APIProblem(.invalidBody, "“\(shown)” is not a field this request takes.", field: shown)
            }
            try check(member.value, is: type, name: name)
            members[member.name] = member.value
        }
        return members
    }

    private static func check(_ value: JSONText, is type: FieldType, name: String) throws(APIProblem) {
        switch (type, value) {
        case (.string, .string): return
        case (.integer, .number(let text, _)):
            guard wholeNumber(text) != nil else {
                throw APIProblem(.invalidBody, "“\(name)” must be a whole number, not \(text.prefix(40)).", field: name)
            }
        case (.object(let fields), .object):
            _ = try checked(value, fields: fields, path: name)
        case (.array(let element), .array(let values, _)):
            guard values.count <= maximumElements else {
                throw APIProblem(.invalidBody, "“\(name)” may hold at most \(maximumElements) values.", field: name)
            }
            for (index, value) in values.enumerated() { try check(value, is: element, name: "\(name)[\(index)]") }
        default:
            throw APIProblem(.invalidBody, "“\(name)” must be \(type.name), not \(kindName(value)).", field: name)
        }
    }

    private static func kindName(_ value: JSONText) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    /// Whether a `Content-Type` is JSON: `application/json`, with any parameters, a charset only
    /// as `utf-8` (`charset=utf-8`, any case, quoted or not).
    static func isJSON(_ contentType: String) -> Bool {
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard parts[0].trimmingWhitespace().lowercased() == "application/json" else { return false }
        // The body is read as UTF-8 (RFC 8259 defines no other), so a charset naming
        // another encoding is refused rather than misread.
        return parts.dropFirst().allSatisfy { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair[0].trimmingWhitespace().lowercased() == "charset" else { return true }
            let value = pair.count == 2 ? pair[1].trimmingWhitespace() : ""
            let charset = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
            return charset.lowercased() == "utf-8"
        }
    }

    /// The string member `name`, if given.
    func string(_ name: String) -> String? {
        guard case .string(let text, _)? = members[name] else { return nil }
        return text
    }

    /// The whole-number member `name`, if given; numbers too large for `Int` saturate (they
    /// are out of every range anyway).
    func integer(_ name: String) -> Int? {
        guard case .number(let text, _)? = members[name] else { return nil }
        return Self.wholeNumber(text)
    }

    /// A JSON number's text as a whole number, as JSON Schema's `integer` reads it: `3`, `3.0`
    /// and `3e0` are 3, `2.5` is none. Beyond `Int`'s range it saturates.
    static func wholeNumber(_ text: String) -> Int? {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : text[...]
        let parts = unsigned.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "e" || $0 == "E" })
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(mantissa[0])
        var fraction = mantissa.count > 1 ? String(mantissa[1]) : ""
        var exponent = 0
        if parts.count > 1 {
            // The reader checked the form; an exponent past any quantity saturates (bounded, as
            // Int.min could not be negated below).
            exponent = max(-1_000, min(1_000, Int(parts[1]) ?? (parts[1].hasPrefix("-") ? -1_000 : 1_000)))
        }
        if exponent > 0 {
            let moved = min(exponent, fraction.count)
            digits += fraction.prefix(moved)
            fraction = String(fraction.dropFirst(moved))
            if exponent > moved { digits += String(repeating: "0", count: min(exponent - moved, 40)) }
        } else if exponent < 0 {
            let moved = min(-exponent, digits.count)
            fraction = String(digits.suffix(moved)) + fraction
            digits = String(digits.dropLast(moved))
            if -exponent > moved { fraction = String(repeating: "0", count: min(-exponent - moved, 40)) + fraction }
        }
        guard fraction.allSatisfy({ $0 == "0" }) else { return nil }
        let trimmed = digits.drop { $0 == "0" }
        guard trimmed.count <= 18, let magnitude = Int(trimmed.isEmpty ? "0" : String(trimmed)) else {
            return negative ? Int.min : Int.max
        }
        return negative ? -magnitude : magnitude
    }

    /// The object member `name` as a body of its own (its members were checked with it).
    func object(_ name: String) -> APIBody? {
        members[name].flatMap(Self.body(of:))
    }

    /// The array member `name`'s objects, each a body of its own (checked with it); `nil`
    /// when not given.
    func objects(_ name: String) -> [APIBody]? {
        guard case .array(let values, _)? = members[name] else { return nil }
        return values.compactMap(Self.body(of:))
    }

    /// A JSON object as a body of its own; `nil` for any other value.
    private static func body(of value: JSONText) -> APIBody? {
        guard case .object(let list, _) = value else { return nil }
        return APIBody(members: Dictionary(list.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Whether the member `name` was given.
    func has(_ name: String) -> Bool { members[name] != nil }
}
