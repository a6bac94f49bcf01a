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
    public var heartbeatInterval: Double = 15
    /// Event streams one client address may hold at once (`0`: no limit); more get 503.
    public var eventStreamsPerAddress = 128
    /// Proxies whose `X-Forwarded-For` names the client, for per-address limits and the log.
    public var trustedProxies: [String] = []

    public init() {}

    /// The folder of product photos: ``mediaPath``, or `media/` in the database file's folder
    /// (in the working directory when the database is a PostgreSQL URL).
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

    /// The text `--help` prints.
    public static let usage = """
        Usage: quickcart [options]
               quickcart catalog import FILE [--dry-run] | catalog export | orders export (see quickcart catalog --help)

          --host ADDRESS        IP address to listen on (QUICKCART_HOST, default 127.0.0.1)
          --port PORT           TCP port, 0 picks a free one (QUICKCART_PORT, default 8080)
          --db PATH             SQLite database file (QUICKCART_DB, default quickcart.sqlite)
          --empty-carts         start new sessions with an empty cart (QUICKCART_EMPTY_CARTS=1)
          --secure-cookies      Secure cookies and HSTS, for HTTPS (QUICKCART_SECURE_COOKIES=1)
          --resources DIR       folder with Views/ and Public/ (QUICKCART_RESOURCES)
          --media DIR           folder of product photos (QUICKCART_MEDIA, default media/ beside the database)
          --threads N           server threads (QUICKCART_THREADS, default: one per CPU)
          --session-days DAYS   idle days before a session ends (QUICKCART_SESSION_DAYS, default 30)
          --db-max-mb MB        refuse changes (503) once the database reaches MB (QUICKCART_DB_MAX_MB)
          --max-connections-per-ip N
                                connections one address may hold, 0 = no limit
                                (QUICKCART_MAX_CONNECTIONS_PER_IP, default 256)
          --max-streams-per-ip N
                                live-badge streams one address may hold, 0 = no limit
                                (QUICKCART_MAX_STREAMS_PER_IP, default 128)
          --trusted-proxy ADDRESS
                                a proxy whose X-Forwarded-For names the client; repeatable
                                (QUICKCART_TRUSTED_PROXIES, comma-separated)
          --no-access-log       do not log each request to standard error (QUICKCART_ACCESS_LOG=0)
          --help                show this help

        """

    /// Reads the configuration.
    /// - Throws: ``UsageError`` for an unknown flag or a malformed value.
    public static func parse(arguments: [String], environment: [String: String]) throws -> Configuration {
        var configuration = Configuration()
        func number(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(description: "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), not “\(text)”")
            }
            return value
        }
        func flag(_ text: String, _ name: String) throws -> Bool {
            switch text.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off", "": return false
            default: throw UsageError(description: "\(name) must be 1 or 0, not “\(text)”")
            }
        }

        if let value = environment["QUICKCART_HOST"] { configuration.host = value }
        if let value = environment["QUICKCART_PORT"] { configuration.port = try number(value, "QUICKCART_PORT", 0...65535) }
        if let value = environment["QUICKCART_DB"] { configuration.databasePath = value }
        if let value = environment["QUICKCART_EMPTY_CARTS"] { configuration.emptyCarts = try flag(value, "QUICKCART_EMPTY_CARTS") }
        if let value = environment["QUICKCART_SECURE_COOKIES"] { configuration.secureCookies = try flag(value, "QUICKCART_SECURE_COOKIES") }
        if let value = environment["QUICKCART_RESOURCES"] { configuration.resourcesPath = value }
        if let value = environment["QUICKCART_MEDIA"] { configuration.mediaPath = value }
        if let value = environment["QUICKCART_THREADS"] { configuration.threads = try number(value, "QUICKCART_THREADS", 1...256) }
        if let value = environment["QUICKCART_DB_MAX_MB"] {
            configuration.maximumDatabaseBytes = Int64(try number(value, "QUICKCART_DB_MAX_MB", 1...1_000_000)) << 20
        }
        if let value = environment["QUICKCART_MAX_CONNECTIONS_PER_IP"] {
            configuration.connectionsPerAddress = try number(value, "QUICKCART_MAX_CONNECTIONS_PER_IP", 0...1_000_000)
        }
        if let value = environment["QUICKCART_MAX_STREAMS_PER_IP"] {
            configuration.eventStreamsPerAddress = try number(value, "QUICKCART_MAX_STREAMS_PER_IP", 0...1_000_000)
        }
        if let value = environment["QUICKCART_TRUSTED_PROXIES"] {
            configuration.trustedProxies = value.split(separator: ",").map { $0.trimmingWhitespace(newlines: false) }.filter { !$0.isEmpty }
        }
        if let value = environment["QUICKCART_ACCESS_LOG"] { configuration.accessLog = try flag(value, "QUICKCART_ACCESS_LOG") }
        if let value = environment["QUICKCART_SESSION_DAYS"] {
            configuration.sessionIdleSeconds = Int64(try number(value, "QUICKCART_SESSION_DAYS", 1...3650)) * 86_400
        }

        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError(description: "\(name) needs a value") }
                return next
            }
            switch name {
            case "--host": configuration.host = try value()
            case "--port": configuration.port = try number(try value(), "--port", 0...65535)
            case "--db": configuration.databasePath = try value()
            case "--empty-carts": configuration.emptyCarts = true
            case "--secure-cookies": configuration.secureCookies = true
            case "--resources": configuration.resourcesPath = try value()
            case "--media": configuration.mediaPath = try value()
            case "--threads": configuration.threads = try number(try value(), "--threads", 1...256)
            case "--session-days": configuration.sessionIdleSeconds = Int64(try number(try value(), "--session-days", 1...3650)) * 86_400
            case "--db-max-mb": configuration.maximumDatabaseBytes = Int64(try number(try value(), "--db-max-mb", 1...1_000_000)) << 20
            case "--max-connections-per-ip": configuration.connectionsPerAddress = try number(try value(), "--max-connections-per-ip", 0...1_000_000)
            case "--max-streams-per-ip": configuration.eventStreamsPerAddress = try number(try value(), "--max-streams-per-ip", 0...1_000_000)
            case "--trusted-proxy": configuration.trustedProxies.append(try value())
            case "--no-access-log": configuration.accessLog = false
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        return configuration
    }
}
