import Dispatch
import FoundationEssentials
import MicroHTTP
import Mustache
import Synchronization

/// The whole shop, composed: storage, sessions, pages, live badge and the server.
///
/// ```swift
/// let app = try QuickCartApp(configuration: configuration)
/// try app.start()
/// print("http://\(configuration.host):\(app.port)/")
/// …
/// app.stop()
/// ```
public final class QuickCartApp: Sendable {
    /// How the app was configured.
    public let configuration: Configuration
    /// The live-badge hub, exposed for tests and diagnostics.
    public let hub: BadgeHub
    private let storage: any ShopStorage
    private let server: Server
    /// What the server answers with once it has read a request.
    private let router: Router
    /// The operator's `/metrics` listener, when configured.
    private let metricsServer: Server?
    /// The plain-HTTP listener that redirects to HTTPS, when configured.
    private let redirectServer: Server?
    private let maintenance = Mutex<[MaintenanceTimer]>([])
    /// Where the purge and the catalog check run, one at a time, so ``stop()`` can wait for
    /// the one under way before closing storage.
    private let maintenanceQueue = DispatchQueue(label: "quickcart.maintenance", qos: .utility)
    /// Whether the last check for a new catalog failed, so an outage is logged once.
    private let catalogCheckFailing = Atomic(false)
    /// Where access-log lines gather between writes; `nil` without an access log.
    private let accessLogOutput: BufferedLog?

    /// Opens (and migrates) the database, loads templates, icons and static files, and builds
    /// the routes. Nothing listens until ``start()``.
    /// - Throws: When the database cannot be opened or migrated, `Views/`/`Public/` are missing,
    ///   or a template does not fit its view (naming the file, line and field).
    public init(configuration: Configuration) throws {
        var configuration = configuration
        // Cookies that came over HTTPS must never travel without it.
        if configuration.servesHTTPS { configuration.secureCookies = true }
        self.configuration = configuration
        // Before anything logs: storage's first lines take the format too.
        Log.writesJSON.store(configuration.logFormat == .json, ordering: .relaxed)
        let resources = try Resources.locate(configured: configuration.resourcesPath)
        let threads = configuration.threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount)

        storage = try Storage.open(configuration, connections: threads + 2, serving: true)
        let secret = try storage.sessionSecret()
        let sessionManager = SessionManager(
            store: storage.sessions, secret: secret, liveCatalog: storage.liveCatalog,
            idleLifetime: configuration.sessionIdleSeconds, secureCookies: configuration.secureCookies
        )
        hub = BadgeHub()

        let securityHeaders = SecurityHeaders(strictTransportSecurity: configuration.secureCookies)
        // The server answers these itself, with the same security headers pages get.
        // The page script's modules import each other at versioned addresses (ScriptModules).
        let staticFiles = try StaticFiles(directory: resources.public, headers: securityHeaders.fields, rewrite: ScriptModules.rewrite)
        let icons = try IconSet(directory: resources.public + "/icons")
        let shop = configuration.shop
        let release = try AppRelease.digest(
            publicFiles: staticFiles.paths.map { ($0, staticFiles.version(of: $0) ?? "") }, viewsDirectory: resources.views, shop: shop
        )
        let assets = AssetsView(
            css: staticFiles.versionedURL("css/app.css"), js: staticFiles.versionedURL("js/app.js"),
            favicon: staticFiles.versionedURL("icons/favicon.svg"), touchIcon: staticFiles.versionedURL("icons/app/maskable-192.png")
        )
        let pages = PageRenderer(
            templates: try PageTemplates(directory: resources.views),
            icons: icons,
            assets: assets,
            shop: ShopView(shop, release: release, heartbeatInterval: configuration.heartbeatInterval),
            notices: NoticeCookies(secret: secret, secure: configuration.secureCookies)
        )
        let clock = Clock(offsetFile: configuration.testClockFile)
        // The operator's lines' log: one writer keeps the two kinds of line whole and in order.
        let accessLogOutput = configuration.accessLog ? Log.output : nil
        self.accessLogOutput = accessLogOutput
        let storage = storage
        let metrics = ShopMetrics()
        let publisher = storage.badgePublisher(deliveringTo: hub)
        // One set of join rules (and one per-address limit on wrong codes) for the web and the API.
        let joining = DeviceJoining(
            joinCodes: storage.joinCodes, sessions: storage.sessions, sessionManager: sessionManager, publisher: publisher, attempts: .joinTries()
        )
        let context = ShopContext(
            configuration: configuration, storage: storage, sessionManager: sessionManager, pages: pages,
            catalogDisplay: CatalogDisplay(liveCatalog: storage.liveCatalog, icons: icons), publisher: publisher, hub: hub,
            recentSearchCookies: RecentSearchCookies(
                secret: secret, secure: configuration.secureCookies, lifetimeSeconds: Int(configuration.sessionIdleSeconds)
            ),
            joining: joining, staticFiles: staticFiles, assets: assets, release: release, clock: clock
        )
        var routes = try ShopRouter(
            shop: context, metrics: metrics, securityHeaders: securityHeaders,
            accessLog: accessLogOutput.map { output in AccessLog(write: output.write, json: configuration.logFormat == .json) }
        )
        for feature in ShopFeatures.all {
            try feature.register(with: context, in: &routes)
        }
        var router = routes.router
        // Innermost, laid out from the finished route table: a slot per route.
        let requestMetrics = RequestMetrics(routePatterns: router.routePatterns)
        router.add(middleware: requestMetrics)
        self.router = router
        let server = Server(
            configuration: Server.Configuration(
                host: configuration.host, port: configuration.port, threadCount: threads,
                connectionsPerIPLimit: configuration.connectionsPerAddress,
                requestHeaderTimeout: Double(configuration.requestHeaderTimeout),
                heartbeatInterval: configuration.heartbeatInterval,
                maximumEventStreamsPerClient: configuration.eventStreamsPerAddress,
                trustedProxies: configuration.trustedProxies,
                tls: configuration.tlsCertificatePath.flatMap { certificate in
                    configuration.tlsKeyPath.map { TLSConfiguration(certificatePath: certificate, keyPath: $0) }
                }
            ),
            responder: router,
            serving: staticFiles, at: "/static/"
        )
        self.server = server
        redirectServer = configuration.httpRedirectPort.map { redirectPort in
            Server(
                configuration: Server.Configuration(host: configuration.host, port: redirectPort, threadCount: 1, maximumEventStreams: 1),
                // A wildcard host (0.0.0.0) names no host: a request without Host then gets 400.
                responder: HTTPSRedirect(httpsPort: { [server] in server.port }, fallbackHost: configuration.host)
            )
        }
        metricsServer = configuration.metricsAddress.map { address in
            Self.metricsServer(at: address, metrics: metrics, requests: requestMetrics, shop: server, storage: storage)
        }
    }

    /// A listener of its own for `/metrics` (one thread; nothing else is served there), so the
    /// shop's port never shows them.
    private static func metricsServer(
        at address: Configuration.ListenAddress, metrics: ShopMetrics, requests: RequestMetrics, shop: Server, storage: any ShopStorage
    ) -> Server {
        var router = Router()
        router.get("/metrics") { _ in
            let text = metrics.text(
                requests: requests, server: shop, storage: storage.statistics(), catalogVersion: storage.liveCatalog.current.version
            )
            var response = Response(status: .ok, headers: ["Content-Type": MetricsText.contentType], body: .bytes(Array(text.utf8)))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        return Server(
            configuration: Server.Configuration(host: address.host, port: address.port, threadCount: 1, connectionLimit: 64, maximumEventStreams: 1),
            responder: router
        )
    }

    /// Answers `request` as the server does once it has read one: through the same router
    /// (middleware, routes, error pages), without a socket, whether or not the app was
    /// started. For tests that need only a request and its answer, as Hummingbird's `.router`
    /// test mode; the server's own steps before routing (static files' fast path, refusing a
    /// malformed target or body) are not taken.
    public func respond(to request: Request) -> Response {
        router.respond(to: request)
    }

    /// The port the server listens on (useful with port 0).
    public var port: Int { server.port }

    /// The plain-HTTP port that redirects to HTTPS; `nil` without `--http-redirect-port`.
    public var redirectPort: Int? { redirectServer?.port }

    /// Rereads the TLS certificate and key for new handshakes (SIGHUP); open connections and
    /// event streams keep going. When the files cannot be used, the certificate in force stays.
    /// Either way it logs what happened.
    @discardableResult
    public func reloadTLSCertificate() -> Bool {
        guard configuration.servesHTTPS else {
            Log.info("SIGHUP: no TLS certificate to reload (serving plain HTTP)")
            return false
        }
        do {
            try server.reloadTLSIdentity()
            Log.info("TLS certificate reloaded from \(configuration.tlsCertificatePath ?? "")")
            return true
        } catch {
            Log.error("TLS certificate not reloaded, the one in force stays: \(error)")
            return false
        }
    }

    /// The port `/metrics` is served on (useful with port 0); `nil` without `--metrics`.
    public var metricsPort: Int? { metricsServer?.port }

    /// Event streams currently open.
    public var openEventStreamCount: Int { server.openEventStreamCount }

    /// Event streams refused with 503 since the start because a limit on open streams was
    /// reached (`quickcart_event_streams_refused_total` in `/metrics`).
    public var refusedEventStreamCount: Int { server.refusedEventStreamCount }

    /// Starts serving, the hourly purge of expired sessions, the check for a new catalog
    /// (every ``catalogCheckInterval``) and the log's writes.
    public func start() throws {
        try server.start()
        do {
            try metricsServer?.start()
            try redirectServer?.start()
        } catch {
            metricsServer?.stop()
            server.stop()
            throw error
        }
        if let hint = configuration.shop.shortNameHint { Log.info(hint) }
        repeatEvery(.seconds(3600), firstAfter: .seconds(60), on: maintenanceQueue) { [weak self] in self?.purgeExpiredSessions() }
        repeatEvery(Self.catalogCheckInterval, on: maintenanceQueue) { [weak self] in self?.refreshCatalog() }
        if let accessLogOutput {
            // Not on the maintenance queue: a slow catalog check must not hold up the log.
            repeatEvery(.milliseconds(200), on: .global(qos: .utility)) { accessLogOutput.flush() }
        }
    }

    /// Stops accepting, ends event streams, finishes requests in flight and closes the database.
    public func stop() {
        maintenance.withLock { timers in
            for timer in timers { timer.source.cancel() }
            timers.removeAll()
        }
        // Cancelling does not wait for a handler already running: wait for the purge or
        // catalog check under way, so none touches storage as it closes (and reports a false
        // failure), but not forever: a check stuck on an unreachable database is abandoned.
        let maintenanceIdle = DispatchSemaphore(value: 0)
        maintenanceQueue.async { maintenanceIdle.signal() }
        if maintenanceIdle.wait(timeout: .now() + Self.maintenanceStopTimeout) == .timedOut {
            Log.error("stopping without waiting longer for a catalog check or purge still under way")
        }
        redirectServer?.stop()
        metricsServer?.stop()
        server.stop()
        storage.close()
        Log.output.flush()
    }

    /// How long ``stop()`` waits for a purge or catalog check under way (seconds).
    private static let maintenanceStopTimeout = 10.0

    /// How often a running shop asks storage whether an import landed: one small read. Pages
    /// show an imported catalog at the latest this long after its commit.
    public static let catalogCheckInterval = DispatchTimeInterval.seconds(2)

    /// Takes the stored catalog when an import changed it (on any instance sharing storage),
    /// and tells this instance's open pages (``BadgeHub/announceCatalog(version:)``). While
    /// storage is out of reach, the first failure is logged, then the recovery.
    public func refreshCatalog() {
        do {
            try CatalogUpdates(storage: storage, hub: hub).takeNewCatalog()
            if catalogCheckFailing.exchange(false, ordering: .relaxed) { Log.info("checking for a new catalog works again") }
        } catch {
            if !catalogCheckFailing.exchange(true, ordering: .relaxed) { Log.error("checking for a new catalog failed: \(error)") }
        }
    }

    private func repeatEvery(
        _ interval: DispatchTimeInterval, firstAfter delay: DispatchTimeInterval? = nil, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + (delay ?? interval), repeating: interval)
        timer.setEventHandler(handler: work)
        maintenance.withLock { $0.append(MaintenanceTimer(source: timer)) }
        timer.resume()
    }

    /// Deletes sessions idle for longer than the configured lifetime, with their carts.
    public func purgeExpiredSessions() {
        do {
            let cutoff = Clock.system.nowMilliseconds() / 1000 - configuration.sessionIdleSeconds
            let deleted = try storage.sessions.deleteSessions(lastSeenBefore: cutoff)
            if deleted > 0 { Log.info("purged \(deleted) expired sessions") }
        } catch {
            Log.error("purging expired sessions failed: \(error)")
        }
    }
}

/// `@unchecked Sendable`: a Dispatch timer may be cancelled from any thread.
private struct MaintenanceTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
}

/// Where `Views/` and `Public/` are.
struct Resources {
    let views: String
    let `public`: String

    /// The configured folder; else the working directory; else the folders above the
    /// executable (where `swift build` leaves it inside a checkout).
    static func locate(configured: String?) throws -> Resources {
        var candidates: [URL] = []
        if let configured {
            candidates = [URL(fileURLWithPath: configured)]
        } else {
            candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(folder)
                folder.deleteLastPathComponent()
            }
        }
        for folder in candidates {
            let views = folder.appendingPathComponent("Views").path
            let publicFolder = folder.appendingPathComponent("Public").path
            if FileManager.default.fileExists(atPath: views + "/layout-start.mustache"), FileManager.default.fileExists(atPath: publicFolder) {
                return Resources(views: views, public: publicFolder)
            }
        }
        throw Configuration.UsageError(description: "cannot find Views/ and Public/ (looked in \(candidates.map(\.path).joined(separator: ", "))); pass --resources DIR")
    }
}
