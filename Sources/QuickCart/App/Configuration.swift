import FoundationEssentials

/// How QuickCart runs: read from command-line flags, then `QUICKCART_*` environment
/// variables, then defaults.
public struct Configuration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var databasePath = "quickcart.sqlite"
    /// Start new sessions with an empty cart instead of the demo cart.
    public var emptyCarts = false
    /// Mark cookies `Secure` and send `Strict-Transport-Security` (behind HTTPS).
    public var secureCookies = false
    /// The folder holding `Views/` and `Public/`; found next to the executable when not set.
    public var resourcesPath: String?
    /// The folder of product photos; `media/` beside the database when not set.
    public var mediaPath: String?
    /// Server threads; one per CPU when not set.
    public var threads: Int?
    /// Seconds of inactivity after which a session ends.
    public var sessionIdleSeconds: Int64 = 30 * 24 * 3600
    /// The most the database file may grow to, in bytes (`nil`: no limit). Past it, changes
    /// are refused with 503 until space is freed (e.g. by expired sessions being purged).
    public var maximumDatabaseBytes: Int64?
    /// Whether each request is logged to standard error.
    public var accessLog = true
    /// Connections one client address may hold at once (`0`: no limit).
    public var connectionsPerAddress = 256
    /// Seconds a client has to send a request's headers, and the longest a kept-alive
    /// connection may sit idle between requests.
    public var requestHeaderTimeout = 10
    /// Seconds between keep-alive comments on event streams, which also find departed clients.
    /// Changed only by tests (`--test-heartbeat`), which need a silent stream noticed in seconds.
    public var heartbeatInterval: Double = 15
    /// Event streams one client address may hold at once (`0`: no limit); more get 503.
    public var eventStreamsPerAddress = 128
    /// Proxies whose `X-Forwarded-For` names the client, for per-address limits and the log.
    public var trustedProxies: [String] = []
    /// What the shop calls itself: pages' titles and header, and the installed app.
    public var shop = ShopIdentity.standard
    /// The PEM certificate chain and key to serve HTTPS with (both or neither); HTTPS implies
    /// ``secureCookies``. Reread on SIGHUP.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// A plain-HTTP port that answers every request with 308 to the HTTPS address (with TLS).
    public var httpRedirectPort: Int?

    /// Whether the shop serves HTTPS itself.
    public var servesHTTPS: Bool { tlsCertificatePath != nil && tlsKeyPath != nil }

    /// How log lines are written: text, or one JSON object a line.
    public var logFormat = LogFormat.text

    /// How log lines are written.
    public enum LogFormat: String, Sendable, Equatable {
        /// `203.0.113.7 GET /cart 200 7125B 0.84ms s=3fa2c1d09b`, `quickcart: error: …`
        case text
        /// `{"kind":"access","client":"203.0.113.7",…}`, `{"kind":"error","message":"…"}`
        case json

        /// The line an error is logged as in this format, with its line break.
        public func errorLine(_ message: String) -> String {
            self == .json ? JSONLogLine.message(message, isError: true) : "quickcart: error: " + LogLine.printable(message, limit: 4096) + "\n"
        }
    }

    /// Where `/metrics` is served, on a listener of its own (never the shop's port); `nil`: nowhere.
    public var metricsAddress: ListenAddress?

    /// An IP address and a TCP port: `127.0.0.1:9464`, `[::1]:9464`.
    public struct ListenAddress: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Reads `HOST:PORT` (an IPv6 host in brackets) for the option or variable `name`.
        static func parse(_ text: String, _ name: String) throws -> ListenAddress {
            guard let colon = text.lastIndex(of: ":") else {
                throw UsageError(description: "\(name) must be ADDRESS:PORT, such as 127.0.0.1:9464, not “\(text)”")
            }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw UsageError(description: "\(name) needs an address before the port, such as 127.0.0.1:9464") }
            let port = try ConfigurationOption.number(String(text[text.index(after: colon)...]), name, 0...65535)
            return ListenAddress(host: host, port: port)
        }

        /// `host:port` as a URL writes it, an IPv6 host in brackets.
        public var authority: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
    }
    /// For tests only: a file whose number of seconds is added to the clock (``Clock``), so a
    /// test can move past a grace or a code's lifetime without sleeping.
    public var testClockFile: String?

    public init() {}

    /// The folder of product photos: ``mediaPath``, or `media/` in the database file's folder
    /// (in the working directory when the database is PostgreSQL).
    public var mediaDirectory: String {
        if let mediaPath { return mediaPath }
        if Storage.isPostgreSQL(databasePath) {
            return URL(fileURLWithPath: "media").path
        }
        return URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("media").path
    }

    /// A usage error: the message names the flag or variable at fault.
    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The text `--help` prints, made from ``ConfigurationOption/all``.
    public static let usage: String = {
        var text = "Usage: quickcart [options]\n" + OperatorCommand.usageLines(after: "       ") + """

            (quickcart catalog --help explains the commands; all of them read the options below)


            """
        for option in ConfigurationOption.all {
            var head = "  " + option.flag
            switch option.kind {
            case .value(let placeholder, _), .list(let placeholder, _): head += " " + placeholder
            case .toggle: break
            }
            let variable = option.environment.map { " (\($0))" } ?? ""
            let column = 24
            head += head.count < column ? String(repeating: " ", count: column - head.count) : "\n" + String(repeating: " ", count: column)
            text += head + option.help + variable + "\n"
        }
        return text + "  --help                show this help\n"
    }()

    /// Reads the configuration: each option's variable, then the flags (which win).
    /// - Throws: ``UsageError`` for an unknown flag or a malformed value.
    public static func parse(arguments: [String], environment: [String: String]) throws -> Configuration {
        var configuration = Configuration()
        for option in ConfigurationOption.all {
            guard let variable = option.environment, let value = environment[variable] else { continue }
            switch option.kind {
            case .value(_, let apply): try apply(&configuration, value, variable)
            case .toggle(_, let apply): apply(&configuration, try ConfigurationOption.truth(value, variable))
            case .list(_, let apply):
                for item in value.split(separator: ",") {
                    let trimmed = item.trimmingWhitespace(newlines: false)
                    if !trimmed.isEmpty { apply(&configuration, trimmed) }
                }
            }
        }

        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = ConfigurationOption.named(name) else { throw UsageError(description: "unknown option \(argument)") }
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError(description: "\(name) needs a value") }
                return next
            }
            switch option.kind {
            case .value(_, let apply): try apply(&configuration, try value(), name)
            case .list(_, let apply): apply(&configuration, try value())
            case .toggle(let means, let apply):
                guard inlineValue == nil else { throw UsageError(description: "\(name) takes no value") }
                apply(&configuration, means)
            }
        }
        if (configuration.tlsCertificatePath == nil) != (configuration.tlsKeyPath == nil) {
            throw UsageError(description: "--tls-cert and --tls-key go together: give both, or neither")
        }
        if configuration.httpRedirectPort != nil, !configuration.servesHTTPS {
            throw UsageError(description: "--http-redirect-port redirects to HTTPS: give --tls-cert and --tls-key too")
        }
        return configuration
    }
}
