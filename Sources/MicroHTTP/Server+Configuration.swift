#if canImport(Glibc)
import Glibc
#endif

extension Server {
    /// How a ``Server`` listens and what it tolerates.
    public struct Configuration: Sendable {
        /// The IP address to bind, IPv4 or IPv6; `localhost` means `127.0.0.1`.
        public var host: String
        /// The TCP port; `0` picks a free one (read it from ``Server/port`` after starting).
        public var port: Int
        /// Threads in libmicrohttpd's pool; by default one per online CPU.
        public var threadCount: Int
        /// Connections held at once, event streams included. The open-file limit is raised to fit.
        public var connectionLimit: Int
        /// Connections from one IP address at once; `0` means no limit.
        public var connectionsPerIPLimit: Int
        /// Seconds a connection may sit silent before libmicrohttpd closes it (slow senders are
        /// the header and body timeouts' business).
        public var connectionTimeout: Int
        /// Seconds a client has to send a request's headers after connecting or after its
        /// previous answer (which also ends idle keep-alive connections).
        public var requestHeaderTimeout: Double
        /// Seconds a client has to send a request's body once its headers are in.
        public var requestBodyTimeout: Double
        /// Memory per connection (libmicrohttpd's pool): it holds the request line and header
        /// fields as they are read, and the answer's header. Keep it well above
        /// ``maximumTargetLength`` plus ``maximumHeaderBytes`` (and 64 bytes a field), so that
        /// a request past those limits still reaches the server, which refuses it with its own
        /// page; a request head that does not fit at all is refused by libmicrohttpd itself
        /// (414 or 431, a bare answer) and its connection closed.
        public var connectionMemoryLimit: Int
        /// The longest request target (path and query, as sent) accepted; longer gets 414.
        public var maximumTargetLength: Int
        /// The most bytes of header fields (names, values and their separators) accepted;
        /// more gets 431.
        public var maximumHeaderBytes: Int
        /// The most header fields one request may carry; more gets 431.
        public var maximumHeaderFields: Int
        /// The largest request body accepted; larger gets 413, without being read when its
        /// `Content-Length` says so, once it has been read and discarded when it is chunked.
        public var maximumBodySize: Int
        /// The most form fields one request may carry; more gets 413.
        public var maximumFormFields: Int
        /// Seconds between keep-alive comments on event streams, which also find departed clients.
        public var heartbeatInterval: Double
        /// Seconds ``Server/stop()`` waits for requests in flight before closing what is left.
        public var shutdownGracePeriod: Double
        /// Whether libmicrohttpd's own diagnostics go to standard error.
        public var logsLibraryMessages: Bool
        /// Event streams open at once; past it, a new one is answered 503 with `Retry-After`.
        /// `0` means no limit. Keep it below ``connectionLimit``, so pages still get connections.
        public var maximumEventStreams: Int
        /// Event streams one client address (see ``trustedProxies``) may hold at once; past it,
        /// a new one is answered 503 with `Retry-After`. `0` means no limit. Keep it below
        /// ``connectionsPerIPLimit`` (when set), so that address can still load pages.
        public var maximumEventStreamsPerClient: Int
        /// Seconds after which the server ends an event stream cleanly (the client's
        /// `EventSource` reconnects), so no stream holds its place for ever; `0` means never.
        /// Streams are checked at their heartbeat, so one ends within ``heartbeatInterval`` of it.
        public var maximumEventStreamLifetime: Double
        /// Addresses of proxies whose `X-Forwarded-For` names the client: for a request from
        /// one of them, ``Request/remoteAddress`` is the right-most address in that field that
        /// is not itself a trusted proxy; for any other, the peer's address. Per-client limits
        /// use that address.
        public var trustedProxies: [String]
        /// HTTPS with these files; `nil` serves plain HTTP.
        public var tls: TLSConfiguration?

        /// Creates a configuration; every value has a production default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threadCount: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
            connectionLimit: Int = 16_384,
            connectionsPerIPLimit: Int = 0,
            connectionTimeout: Int = 30,
            requestHeaderTimeout: Double = 10,
            requestBodyTimeout: Double = 30,
            connectionMemoryLimit: Int = 24 * 1024,
            maximumTargetLength: Int = 8 * 1024,
            maximumHeaderBytes: Int = 8 * 1024,
            maximumHeaderFields: Int = 100,
            maximumBodySize: Int = 64 * 1024,
            maximumFormFields: Int = 256,
            heartbeatInterval: Double = 15,
            shutdownGracePeriod: Double = 5,
            logsLibraryMessages: Bool = false,
            maximumEventStreams: Int = 12_288,
            maximumEventStreamsPerClient: Int = 128,
            maximumEventStreamLifetime: Double = 3600,
            trustedProxies: [String] = [],
            tls: TLSConfiguration? = nil
        ) {
            self.host = host
            self.port = port
            self.threadCount = max(1, threadCount)
            self.connectionLimit = connectionLimit
            self.connectionsPerIPLimit = connectionsPerIPLimit
            self.connectionTimeout = connectionTimeout
            self.requestHeaderTimeout = requestHeaderTimeout
            self.requestBodyTimeout = requestBodyTimeout
            self.connectionMemoryLimit = connectionMemoryLimit
            self.maximumTargetLength = maximumTargetLength
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumHeaderFields = maximumHeaderFields
            self.maximumBodySize = maximumBodySize
            self.maximumFormFields = maximumFormFields
            self.heartbeatInterval = heartbeatInterval
            self.shutdownGracePeriod = shutdownGracePeriod
            self.logsLibraryMessages = logsLibraryMessages
            self.maximumEventStreams = maximumEventStreams
            self.maximumEventStreamsPerClient = maximumEventStreamsPerClient
            self.maximumEventStreamLifetime = maximumEventStreamLifetime
            self.trustedProxies = trustedProxies
            self.tls = tls
        }
    }

    /// Why a server could not start.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        /// What went wrong, in a sentence.
        public let description: String
    }
}
