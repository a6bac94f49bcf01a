import MicroHTTP

/// The shop's router as features add to it (``ShopFeature``): a page or form handler gets the
/// request with its session and cart (``ShopRequest``), a form's after the CSRF check; the
/// error pages, the access log and the security headers wrap every answer.
struct ShopRouter {
    /// A page's or form's handler.
    typealias Handler = @Sendable (ShopRequest) throws -> Response

    /// The routes added so far.
    private(set) var router: Router
    private let sessionManager: SessionManager
    /// What the handlers count (storage outages).
    let metrics: ShopMetrics
    private let waitingSearches: RecentSearchCookies
    private let clock: Clock
    /// Asked by a new visitor's page, which reads nothing stored (``ShopStorage/confirmReachable()``).
    private let storage: any ShopStorage

    /// A router with no routes yet, its error pages in the shop's layout.
    /// - Throws: ``TemplateError`` when the error page's template does not fit its view.
    init(shop: ShopContext, metrics: ShopMetrics, securityHeaders: SecurityHeaders, accessLog: AccessLog?) throws {
        let errorPages = ErrorPages(sessionManager: shop.sessionManager, page: try shop.pages.page(ErrorView.self, tab: nil), clock: shop.clock)
        router = Router(renderError: errorPages.render, logError: { error, request in
            Log.error("\(request.method) \(request.path) failed: \(error)")
        })
        if let accessLog { router.add(middleware: accessLog) }
        router.add(middleware: securityHeaders)
        sessionManager = shop.sessionManager
        self.metrics = metrics
        waitingSearches = shop.recentSearchCookies
        clock = shop.clock
        storage = shop.storage
    }

    /// `GET pattern` answered by a page (or stream) of the request's session.
    mutating func get(_ pattern: String, use body: @escaping Handler) {
        router.get(pattern, handler: page(body))
    }

    /// `POST pattern`, a form: the CSRF token and origin are checked before `body` runs. Every
    /// post that succeeds stores its session (the first change of a cart, name or
    /// preferences), unless `storesSession` is `false`. With `reissuesCookie`, its answer sets
    /// the session cookie again even when no renewal is due: see ``SessionManager/reissuedCookie(for:)``.
    mutating func post(_ pattern: String, storesSession: Bool = true, reissuesCookie: Bool = false, use body: @escaping Handler) {
        router.post(pattern, handler: action(body, storesSession: storesSession, reissuesCookie: reissuesCookie))
    }

    /// `GET pattern` answered without a session: files, the app's fixed answers, the health check.
    mutating func serve(_ pattern: String, handler: @escaping Router.Handler) {
        router.get(pattern, handler: handler)
    }

    /// `method pattern` answered by a handler that finds its own client, without cookies or
    /// forms: the API's (``APIRoutes``), which reads a bearer token.
    mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping Router.Handler) {
        router.on(method, pattern, handler: handler)
    }

    /// A handler for a page: runs with the request's session and cart, setting its cookie when
    /// new or renewed. With `storesSession`, an answer means the body stored the session if it
    /// was not stored yet, so the answer carries the cookie of the id it is stored under.
    private func page(
        storesSession: Bool = false, reissuesCookie: Bool = false, _ body: @escaping @Sendable (ShopRequest) throws -> Response
    ) -> Router.Handler {
        let sessionManager = sessionManager, clock = clock
        let metrics = metrics
        let waitingSearches = waitingSearches
        let storage = storage
        return { request in
            do {
                let now = clock.nowMilliseconds()
                var resolution = try sessionManager.resolve(request, at: now / 1000)
                // Every other page read storage to find its session; this one would show the
                // starter cart while the database is out of reach, as if the shop were up.
                if resolution.isNew { try storage.confirmReachable() }
                // A session not stored yet keeps its searches in a cookie, which its first
                // change stores with it: its Search tab returns to the newest of them, as it
                // does to a stored search.
                if !resolution.isNew, !resolution.session.isStored {
                    let waiting = waitingSearches.searches(in: request, forClient: resolution.session.clientID)
                    resolution.session.waitingSearches = waiting
                    resolution.session.newestSearch = waiting.first
                }
                // Taken first, so that the session and its cart move into the handler's request
                // rather than being copied (a retain and a release of each of their strings).
                let renewal = resolution.cookie
                let rotating = storesSession ? resolution.rotatingToken : nil
                let reissued = reissuesCookie ? sessionManager.reissuedCookie(for: resolution) : nil
                var response: Response
                var stored: Cookie?
                do {
                    response = try body(ShopRequest(http: request, resolution: resolution, nowMilliseconds: now))
                    stored = rotating.map { sessionManager.cookie(rotating: $0, at: now / 1000) } ?? reissued
                } catch let unchanged as NothingChanged {
                    // Nothing was stored, so there is no new id whose cookie to set.
                    response = unchanged.answer
                }
                // Browsers apply the last cookie of a name: one the handler set (sign-out's new
                // session) must not be overridden by the renewal of the session it replaced.
                if let cookie = stored ?? renewal, !Self.setsCookie(named: cookie.name, in: response) {
                    response.setCookie(cookie)
                }
                // The change stored the waiting searches with the session (a join, into the cart
                // joined): their cookie is spent, for every form that stores a session.
                if rotating != nil, stored != nil, waitingSearches.isCarried(by: request) {
                    let cleared = waitingSearches.clearingCookie()
                    if !Self.setsCookie(named: cleared.name, in: response) { response.setCookie(cleared) }
                }
                return response
            } catch StorageError.signedOut {
                // Another device or tab signed this browser out after the request read its
                // session; its cookie leads to a new session from the next request on.
                throw HTTPError(.forbidden, "This browser was signed out while this was on its way, so nothing was changed.")
            } catch StorageError.unavailable(let reason) {
                // A full disk, a read-only file, a long lock or a database out of reach: the
                // transaction rolled back, so nothing changed, and the same request will work
                // once the cause goes.
                metrics.countStorageUnavailable()
                Log.error("\(request.method) \(request.path): storage unavailable: \(reason)")
                throw HTTPError(
                    .serviceUnavailable,
                    "The shop cannot save or read data right now, so nothing was changed. Please try again in a moment.",
                    headers: ["Retry-After": Self.retryAfter]
                )
            }
        }
    }

    private static func setsCookie(named name: String, in response: Response) -> Bool {
        response.headers.values(named: "Set-Cookie").contains { $0.hasPrefix(name + "=") }
    }

    /// Seconds a client should wait after storage was unavailable.
    static let retryAfter = "5"

    /// A handler for a form post: as ``page(storesSession:_:)``, after checking the CSRF token
    /// and origin. Every post that succeeds stores its session (the first change of a cart,
    /// name or preferences), except where `storesSession` says otherwise.
    private func action(
        _ body: @escaping @Sendable (ShopRequest) throws -> Response, storesSession: Bool = true, reissuesCookie: Bool = false
    ) -> Router.Handler {
        let sessionManager = sessionManager
        return page(storesSession: storesSession, reissuesCookie: reissuesCookie) { request in
            try sessionManager.verify(request.http, for: request.session)
            return try body(request)
        }
    }
}

/// Thrown by a form post's handler that found nothing to change and wrote nothing: `answer` is
/// sent as it is, without the cookie of the id a first change stores the session under.
struct NothingChanged: Error {
    let answer: Response
}
