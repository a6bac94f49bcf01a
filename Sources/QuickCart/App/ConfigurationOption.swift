/// One command-line option of `quickcart` with its environment variable: the single table that
/// serving, the operator's commands and `--help` all read, so none keeps a copy of another's list.
public struct ConfigurationOption: Sendable {
    /// How an option reads what it is given.
    public enum Kind: Sendable {
        /// `--flag VALUE` (or `--flag=VALUE`); the variable holds the value.
        case value(placeholder: String, apply: @Sendable (inout Configuration, String, String) throws -> Void)
        /// `--flag`, meaning `flagMeans`; the variable holds 1 or 0.
        case toggle(flagMeans: Bool, apply: @Sendable (inout Configuration, Bool) -> Void)
        /// `--flag VALUE`, repeatable; the variable holds the values comma-separated.
        case list(placeholder: String, apply: @Sendable (inout Configuration, String) -> Void)
    }

    /// The flag, with its dashes: `--port`.
    public let flag: String
    /// The environment variable, when there is one: `QUICKCART_PORT`.
    public let environment: String?
    public let kind: Kind
    /// What `--help` says of it, the variable and the default included.
    public let help: String

    /// Whether the flag is followed by a value.
    public var takesValue: Bool {
        if case .toggle = kind { return false }
        return true
    }

    /// The option spelt `flag`, if any.
    public static func named(_ flag: String) -> ConfigurationOption? {
        all.first { $0.flag == flag }
    }

    /// Reads a whole number in `range`, for the option or variable `name`.
    static func number(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw Configuration.UsageError(description: "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), not “\(text)”")
        }
        return value
    }

    /// Reads a variable's 1 or 0.
    static func truth(_ text: String, _ name: String) throws -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw Configuration.UsageError(description: "\(name) must be 1 or 0, not “\(text)”")
        }
    }

    private static func value(
        _ flag: String, _ placeholder: String, _ environment: String?, _ help: String,
        _ apply: @escaping @Sendable (inout Configuration, String, String) throws -> Void
    ) -> ConfigurationOption {
        ConfigurationOption(flag: flag, environment: environment, kind: .value(placeholder: placeholder, apply: apply), help: help)
    }

    private static func toggle(
        _ flag: String, means: Bool = true, _ environment: String?, _ help: String,
        _ apply: @escaping @Sendable (inout Configuration, Bool) -> Void
    ) -> ConfigurationOption {
        ConfigurationOption(flag: flag, environment: environment, kind: .toggle(flagMeans: means, apply: apply), help: help)
    }

    /// Every option, in the order `--help` lists them.
    public static let all: [ConfigurationOption] = [
        value("--host", "ADDRESS", "QUICKCART_HOST", "IP address to listen on (default 127.0.0.1)") { configuration, text, _ in configuration.host = text },
        value("--port", "PORT", "QUICKCART_PORT", "TCP port, 0 picks a free one (default 8080)") {
            $0.port = try number($1, $2, 0...65535)
        },
        value("--db", "PATH", "QUICKCART_DB", "SQLite database file, or PostgreSQL: a postgres:// URL or host=… dbname=… (default quickcart.sqlite)") { configuration, text, _ in configuration.databasePath = text },
        toggle("--empty-carts", "QUICKCART_EMPTY_CARTS", "start new sessions with an empty cart") { $0.emptyCarts = $1 },
        toggle("--secure-cookies", "QUICKCART_SECURE_COOKIES", "Secure cookies and HSTS, for HTTPS") { $0.secureCookies = $1 },
        value("--resources", "DIR", "QUICKCART_RESOURCES", "folder with Views/ and Public/") { configuration, text, _ in configuration.resourcesPath = text },
        value("--media", "DIR", "QUICKCART_MEDIA", "folder of product photos (default media/ beside the database)") { configuration, text, _ in configuration.mediaPath = text },
        value("--threads", "N", "QUICKCART_THREADS", "server threads (default: one per CPU)") {
            $0.threads = try number($1, $2, 1...256)
        },
        value("--session-days", "DAYS", "QUICKCART_SESSION_DAYS", "idle days before a session ends (default 30)") {
            $0.sessionIdleSeconds = Int64(try number($1, $2, 1...3650)) * 86_400
        },
        value("--db-max-mb", "MB", "QUICKCART_DB_MAX_MB", "refuse changes (503) once the database reaches MB") {
            $0.maximumDatabaseBytes = Int64(try number($1, $2, 1...1_000_000)) << 20
        },
        value("--max-connections-per-ip", "N", "QUICKCART_MAX_CONNECTIONS_PER_IP", "connections one address may hold, 0 = no limit (default 256)") {
            $0.connectionsPerAddress = try number($1, $2, 0...1_000_000)
        },
        value("--max-streams-per-ip", "N", "QUICKCART_MAX_STREAMS_PER_IP", "live-badge streams one address may hold, 0 = no limit (default 128)") {
            $0.eventStreamsPerAddress = try number($1, $2, 0...1_000_000)
        },
        ConfigurationOption(
            flag: "--trusted-proxy", environment: "QUICKCART_TRUSTED_PROXIES",
            kind: .list(placeholder: "ADDRESS") { $0.trustedProxies.append($1) },
            help: "a proxy whose X-Forwarded-For names the client; repeatable (variable: comma-separated)"
        ),
        value("--metrics", "ADDRESS:PORT", "QUICKCART_METRICS", "serve /metrics (Prometheus) on this address only, such as 127.0.0.1:9464") {
            $0.metricsAddress = try Configuration.ListenAddress.parse($1, $2)
        },
        value("--shop-name", "NAME", "QUICKCART_SHOP_NAME", "the shop's name in page titles, the header and the app (default QuickCart)") {
            $0.shop = ShopIdentity(name: try ShopIdentity.checked($1, $2, limit: ShopIdentity.nameLimit), shortName: $0.shop.givenShortName)
        },
        value("--shop-short-name", "NAME", "QUICKCART_SHOP_SHORT_NAME", "the name under the app's icon on a home screen (default: the shop's name)") {
            $0.shop = ShopIdentity(name: $0.shop.name, shortName: try ShopIdentity.checked($1, $2, limit: ShopIdentity.shortNameLimit))
        },
        value("--tls-cert", "FILE", "QUICKCART_TLS_CERT", "serve HTTPS with this PEM certificate chain (with --tls-key; reread on SIGHUP; implies --secure-cookies)") {
            configuration, text, _ in configuration.tlsCertificatePath = text
        },
        value("--tls-key", "FILE", "QUICKCART_TLS_KEY", "the PEM private key of --tls-cert") { configuration, text, _ in configuration.tlsKeyPath = text },
        value("--http-redirect-port", "PORT", "QUICKCART_HTTP_REDIRECT_PORT", "with HTTPS, a plain-HTTP port that redirects (308) every request to it") {
            $0.httpRedirectPort = try number($1, $2, 0...65535)
        },
        value("--log-format", "text|json", "QUICKCART_LOG_FORMAT", "log lines as text (default) or one JSON object each") {
            guard let format = Configuration.LogFormat(rawValue: $1) else {
                throw Configuration.UsageError(description: "\($2) must be text or json, not “\($1)”")
            }
            $0.logFormat = format
        },
        toggle("--no-access-log", means: false, "QUICKCART_ACCESS_LOG", "do not log each request to standard error (variable: 0)") { $0.accessLog = $1 },
        value("--test-clock-file", "FILE", "QUICKCART_TEST_CLOCK_FILE", "for tests only: FILE holds seconds the clock runs ahead") {
            configuration, text, _ in configuration.testClockFile = text
        },
        value("--test-heartbeat", "SECONDS", "QUICKCART_TEST_HEARTBEAT", "for tests only: seconds between event streams' keep-alive comments (default 15)") {
            $0.heartbeatInterval = Double(try number($1, $2, 1...30))
        },
    ]
}
