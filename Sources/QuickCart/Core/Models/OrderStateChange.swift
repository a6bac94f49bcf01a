/// One move in an order's life: the state it reached and when, with what the operator said
/// about it (a shipment's carrier and tracking link, a cancellation's reason).
public struct OrderStateChange: Hashable, Sendable {
    /// The most characters and bytes of a carrier's name, and of a cancellation's reason.
    public static let carrierLimit = TextLimit(characters: 80, bytes: 320)
    public static let reasonLimit = TextLimit(characters: 500, bytes: 2000)
    /// The most bytes of a tracking link.
    public static let trackingLimit = TextLimit(characters: 2048, bytes: 2048)

    /// The state reached.
    public var state: OrderState
    /// Seconds since 1970 (UTC).
    public var at: Int64
    /// Who carries a shipped order, when the operator said.
    public var carrier: String?
    /// An `http`/`https` link where the shopper follows a shipped order, when there is one.
    public var trackingURL: String?
    /// Why an order was cancelled, when the operator said.
    public var reason: String?

    public init(state: OrderState, at: Int64, carrier: String? = nil, trackingURL: String? = nil, reason: String? = nil) {
        self.state = state
        self.at = at
        self.carrier = carrier
        self.trackingURL = trackingURL
        self.reason = reason
    }

    /// Whether `text` is a tracking link a page may link to: an absolute `http` or `https`
    /// URL with a host (and a port from 1 to 65535, if it names one), printable ASCII without
    /// spaces, quotes or angle brackets, within ``trackingLimit``.
    ///
    /// ```swift
    /// OrderStateChange.isTrackingURL("https://track.example/ABC123")  // true
    /// OrderStateChange.isTrackingURL("javascript:alert(1)")           // false
    /// ```
    public static func isTrackingURL(_ text: String) -> Bool {
        guard trackingLimit.admits(text), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"\"'<>\\`".utf8.contains($0) }) else { return false }
        let lowered = text.lowercased()
        guard let rest = ["https://", "http://"].first(where: lowered.hasPrefix).map({ text.dropFirst($0.count) }) else { return false }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.hasPrefix("@"), !authority.hasPrefix(":") else { return false }
        // The port, if the host (after any user, and any IPv6 literal's brackets) names one.
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority[...]
        guard let colon = hostAndPort.lastIndex(of: ":"), !hostAndPort[colon...].contains("]") else { return !hostAndPort.isEmpty }
        let port = hostAndPort[hostAndPort.index(after: colon)...]
        return colon > hostAndPort.startIndex
            && (port.isEmpty || port.count <= 5 && port.utf8.allSatisfy { (0x30...0x39).contains($0) } && (1...65535).contains(Int(port) ?? 0))
    }

    /// Whether `text` is operator text a page and a log can show as it is: within `limit`,
    /// not empty, and without control characters (line breaks included) or unassigned code points.
    public static func isPrintable(_ text: String, within limit: TextLimit) -> Bool {
        guard limit.admits(text), !text.allSatisfy(\.isWhitespace) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: false
            default: true
            }
        }
    }
}
