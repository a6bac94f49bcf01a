/// Who an order goes to and where: what the Delivery step asks, saved on the shopper for next
/// time and copied into each order. Texts are kept as typed (trimmed, see ``init(typed:)``); ``problems(methods:)``
/// says what is wrong with them.
public struct DeliveryDetails: Sendable, Hashable {
    /// The form's fields, in the order they are asked (and their problems reported).
    public enum Field: String, Sendable, CaseIterable {
        case name, email, phone, method
        case addressLine1 = "address_line1", addressLine2 = "address_line2"
        case city, region
        case postalCode = "postal_code"
        case country
    }

    public var name = ""
    public var email = ""
    /// May be empty.
    public var phone = ""
    public var addressLine1 = ""
    /// May be empty.
    public var addressLine2 = ""
    public var city = ""
    /// State, province or region; may be empty.
    public var region = ""
    public var postalCode = ""
    /// An ISO 3166-1 alpha-2 code.
    public var country = ""
    /// The chosen ``DeliveryMethod/code``.
    public var method = ""

    public init() {}

    /// The details as a form or the API typed them: each field trimmed, the country's code
    /// in capitals, so that the method check, the stored order and its display all see `US`
    /// for `us`, and the phone number in ASCII digits (``asciiPhoneNumber(_:)``).
    public init(typed: (Field) -> String) {
        for field in Field.allCases { self[field] = typed(field).trimmingWhitespace() }
        country = country.uppercased()
        phone = Self.asciiPhoneNumber(phone)
        postalCode = Self.asciiPostalCode(postalCode)
    }

    /// `text` with full-width ASCII forms (`１０２－０００１`, `ＳＷ１Ａ`) and digits of any script
    /// as ASCII, and the ideographic space as a space: what an East Asian input method or an
    /// Arabic keyboard types is the same postal code to a carrier.
    static func asciiPostalCode(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue, !scalar.isASCII {
                scalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(value)))
            } else if (0xFF01...0xFF5E).contains(scalar.value) {
                scalars.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            } else {
                scalars.append(scalar == "\u{3000}" ? " " : scalar)
            }
        }
        return String(scalars)
    }

    /// `text` with every decimal digit of any script as its ASCII digit, and the full-width
    /// `＋ － （ ） ．` and ideographic space as their ASCII forms: what a Japanese or Chinese
    /// input method types (`０１２３`), or an Arabic keyboard (`٠١٢٣`), is the same number to
    /// a carrier. Anything else is left for ``problems(methods:)`` to refuse.
    static func asciiPhoneNumber(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue, !scalar.isASCII {
                scalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(value)))
            } else if ["\u{FF0B}", "\u{FF0D}", "\u{FF08}", "\u{FF09}", "\u{FF0E}"].contains(scalar) {
                scalars.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            } else if scalar == "\u{3000}" {
                scalars.append(" ")
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The longest text each field takes, in characters (and four bytes each, at most).
    public static let maximumLengths: [Field: Int] = [
        .name: 100, .email: 254, .phone: 30, .method: 40, .addressLine1: 100, .addressLine2: 100, .city: 60, .region: 60,
        .postalCode: 16, .country: 2,
    ]

    /// The value of `field`.
    public subscript(field: Field) -> String {
        get {
            switch field {
            case .name: name
            case .email: email
            case .phone: phone
            case .addressLine1: addressLine1
            case .addressLine2: addressLine2
            case .city: city
            case .region: region
            case .postalCode: postalCode
            case .country: country
            case .method: method
            }
        }
        set {
            switch field {
            case .name: name = newValue
            case .email: email = newValue
            case .phone: phone = newValue
            case .addressLine1: addressLine1 = newValue
            case .addressLine2: addressLine2 = newValue
            case .city: city = newValue
            case .region: region = newValue
            case .postalCode: postalCode = newValue
            case .country: country = newValue
            case .method: method = newValue
            }
        }
    }

    /// Town, region and postal code on one line, as an address is written: "Portland, OR, 97201".
    public var cityLine: String {
        [city, region, postalCode].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The country's name, or its code when it names none.
    public var countryName: String { Country.named(country)?.name ?? country }

    /// Whether an address is given: a street line (all an order collected in the store may lack).
    public var hasAddress: Bool { !addressLine1.isEmpty }

    /// The details an order collected in the store keeps: contact and method, no address.
    public var withoutAddress: DeliveryDetails {
        var details = self
        for field in Self.addressFields { details[field] = "" }
        return details
    }

    /// The fields of the address, which an order collected in the store does without.
    public static let addressFields: Set<Field> = [.addressLine1, .addressLine2, .city, .region, .postalCode, .country]

    /// Whether the chosen method, among `methods`, is one the shopper collects in the store.
    func isCollected(among methods: [DeliveryMethod]) -> Bool {
        methods.first { $0.code == method }?.isCollected == true
    }

    /// The details as they are saved for `methods`: for a method collected in the store, an
    /// address field a parcel would refuse is left empty rather than refused (the form hides
    /// the address then, so its message could not be seen), the rest kept for a later parcel.
    public func keepingUsableAddress(for methods: [DeliveryMethod]) -> DeliveryDetails {
        guard isCollected(among: methods) else { return self }
        var kept = self
        for field in Self.addressFields where problem(with: field, methods: methods, collected: false) != nil { kept[field] = "" }
        return kept
    }

    /// What is wrong, one message per wrong field, in the form's order; empty when the details
    /// can be used with one of `methods`. A method the shopper collects in the store
    /// (``DeliveryMethod/isCollected``) asks no address, and its order keeps none: nothing
    /// there is wrong then.
    public func problems(methods: [DeliveryMethod]) -> [(field: Field, message: String)] {
        let collected = isCollected(among: methods)
        var problems: [(field: Field, message: String)] = []
        for field in Field.allCases {
            if let message = problem(with: field, methods: methods, collected: collected) { problems.append((field, message)) }
        }
        return problems
    }

    private func problem(with field: Field, methods: [DeliveryMethod], collected: Bool) -> String? {
        if collected, Self.addressFields.contains(field) { return nil }
        let value = self[field]
        let maximum = Self.maximumLengths[field] ?? 100
        if value.count > maximum || value.utf8.count > maximum * 4 {
            return "Use at most \(maximum) characters."
        }
        if value.unicodeScalars.contains(where: Self.isInvisible) {
            return "Remove the line breaks or other invisible characters."
        }
        if !value.isEmpty, !value.unicodeScalars.contains(where: Self.isSeen) {
            return "Enter letters or digits that can be seen: this shows as nothing."
        }
        switch field {
        case .name: return value.isEmpty ? "Enter your full name." : nil
        case .email: return Self.isEmailAddress(value) ? nil : value.isEmpty ? "Enter your email address." : "Enter an email address like name@example.com."
        case .phone:
            if value.isEmpty { return nil }
            guard value.unicodeScalars.allSatisfy(Self.isPhoneScalar) else {
                return "Enter a phone number with digits, spaces and + - ( ) only, or leave it empty."
            }
            return Self.isPhoneNumber(value) ? nil : "Enter the whole phone number, at least \(Self.phoneDigits) digits, or leave it empty."
        case .addressLine1: return value.isEmpty ? "Enter the street address." : nil
        case .addressLine2, .region: return nil
        case .city: return value.isEmpty ? "Enter the town or city." : nil
        case .postalCode:
            if value.isEmpty { return "Enter the postal code." }
            return value.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == " " || $0 == "-" })
                ? nil : "Enter a postal code with letters, digits, spaces and hyphens only."
        case .country:
            if value.isEmpty { return "Choose the country." }
            guard Country.named(value) != nil, methods.contains(where: { !$0.isCollected && $0.delivers(to: value) }) else {
                return "We do not deliver to that country. Choose one from the list."
            }
            return nil
        case .method:
            guard let chosen = methods.first(where: { $0.code == value }) else { return "Choose how your order is delivered." }
            guard Country.named(country) == nil || chosen.suits(country: country) else {
                return "\(chosen.name) does not deliver to \(countryName). Choose another way."
            }
            return nil
        }
    }

    /// One `@` with text on both sides, a dot inside the domain, no spaces: what mail can be sent to
    /// (the browser's `type="email"` asks the same).
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let domain = parts.last, domain.count >= 3 else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty } && !text.contains(where: \.isWhitespace)
    }

    /// The fewest digits a phone number has.
    static let phoneDigits = 5

    /// Digits with spaces, `+`, `-`, `(`, `)` and `.`, at least ``phoneDigits`` digits.
    static func isPhoneNumber(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isPhoneScalar) && text.unicodeScalars.filter { ("0"..."9").contains($0) }.count >= phoneDigits
    }

    /// An ASCII digit, space, `+`, `-`, `(`, `)` or `.`. Scalars, not Characters: a digit with
    /// a combining mark is one Character, and in "0"..."9".
    private static func isPhoneScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ["+", "-", "(", ")", ".", " "].contains(scalar)
    }

    /// Whether `scalar` shows on its own: a letter, digit, punctuation or symbol, but the blanks
    /// that are letters or symbols by their category (Hangul fillers, the Braille blank). Marks,
    /// joiners and variation selectors only change what they follow.
    static func isSeen(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// Control characters, the line and paragraph separators (U+2028, U+2029: line breaks to
    /// JavaScript, editors and spreadsheets), and format characters but the zero-width joiners:
    /// U+200C and U+200D are parts of written names (Persian, the Indic scripts) and of emoji
    /// sequences, where the others (bidi overrides, zero-width spaces) only hide or reorder text.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
        default: false
        }
    }
}
