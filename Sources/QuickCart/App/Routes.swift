import MicroHTTP

/// The route table: every address QuickCart answers, and who answers it.
struct Routes {
    let sessions: SessionManager
    let home: HomeController
    let search: SearchController
    let cart: CartController
    let profile: ProfileController
    let orders: OrdersController
    let preferences: PreferencesController
    let devices: DevicesController
    let events: EventsController
    let staticFiles: StaticFiles
    /// The manifest, the service worker and the offline page.
    let installable: InstallableApp
    /// Product photo thumbnails, under `/media/`.
    let media: MediaFiles
    let errorPages: ErrorPages
    /// Checks storage: throws when it cannot be reached. (Counts are for the operator's
    /// metrics listener, not for anyone who can reach the shop.)
    let health: @Sendable () throws -> Void
    let metrics: ShopMetrics
    let securityHeaders: SecurityHeaders
    let accessLog: AccessLog?
    /// The time handlers see.
    let clock: Clock

    func makeRouter() -> Router {
        var router = Router(renderError: errorPages.render, logError: { error, request in
            Log.error("\(request.method) \(request.path) failed: \(error)")
        })
        if let accessLog { router.add(middleware: accessLog) }
        router.add(middleware: securityHeaders)

        router.get("/", handler: page(home.show))
        router.get("/search", handler: page(search.show))
        router.get("/cart", handler: page(cart.show))
        router.get("/profile", handler: page(profile.show))
        router.get("/orders/:id", handler: page(orders.show))
        router.get("/events", handler: page(events.stream))

        router.post("/cart/items", handler: action(cart.add))
        router.post("/cart/items/:id/quantity", handler: action(cart.setQuantity))
        router.post("/cart/items/:id/remove", handler: action(cart.remove))
        router.post("/cart/items/:id/restore", handler: action(cart.undoRemove))
        router.post("/cart/checkout", handler: action(cart.checkout))
        router.post("/search/recent/clear", handler: action(search.clearRecent, storesSession: false))
        router.post("/profile/name", handler: action(profile.rename))
        router.get("/profile/code", handler: page(devices.showCode))
        router.post("/profile/code", handler: action(devices.createCode))
        router.get("/join", handler: page(devices.showJoin))
        router.post("/join", handler: action(devices.join))
        router.post("/profile/devices/sign-out", handler: action(devices.signOutDevice, storesSession: false))
        router.post("/profile/devices/sign-out-others", handler: action(devices.signOutOthers, storesSession: false))
        router.post("/profile/sign-out", handler: action(profile.signOut, storesSession: false))
        router.post("/profile/theme", handler: action(preferences.setTheme))
        router.post("/profile/tabs", handler: action(preferences.arrangeTabs))
        router.post("/profile/tabs/reset", handler: action(preferences.resetTabs))
        router.post("/profile/notifications", handler: action(preferences.setNotifications))
        router.post("/preferences/layout", handler: action(preferences.setLayout))

        let staticFiles = staticFiles
        router.get("/static/*path") { request in
            try staticFiles.response(for: request, path: request.routeParameters["path"] ?? "")
        }
        let installable = installable
        router.get("/manifest.webmanifest") { installable.manifest($0) }
        router.get("/sw.js") { try installable.worker($0) }
        router.get("/sw-assets.json") { installable.assetList($0) }
        router.get("/offline") { installable.offlinePage($0) }
        let media = media
        router.get("/media/:name") { request in
            try media.response(for: request, name: request.routeParameters["name"] ?? "")
        }
        let health = health
        router.get("/healthz") { _ in
            var response: Response
            do {
                try health()
                response = Response.text("ok\n")
            } catch {
                // Whatever failed, this instance should not get traffic for now.
                Log.error("health check: \(error)")
                response = Response.text("unavailable\n", status: .serviceUnavailable)
                response.headers["Retry-After"] = Self.retryAfter
            }
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        return router
    }

    /// A handler for a page: runs with the request's session and cart, setting its cookie when
    /// new or renewed. With `storesSession`, an answer means the body stored the session if it
    /// was not stored yet, so the answer carries the cookie of the id it is stored under.
    private func page(storesSession: Bool = false, _ body: @escaping @Sendable (ShopRequest) throws -> Response) -> Router.Handler {
        let sessions = sessions, clock = clock
        let metrics = metrics
        let pending = search.pending
        return { request in
            do {
                let now = clock.nowMilliseconds()
                let resolution = try sessions.resolve(request, at: now / 1000)
                var session = resolution.session
                // A session not stored yet keeps its searches in this instance's memory: its
                // Search tab returns to the newest of them, as a stored session's does.
                if !session.isStored, !resolution.isNew { session.newestSearch = pending.recent(for: session.clientID).first }
                var response: Response
                var stored: Cookie?
                do {
                    response = try body(ShopRequest(
                        http: request, session: session, cart: resolution.cart, cartVersion: resolution.cartVersion,
                        isNewSession: resolution.isNew, nowMilliseconds: now
                    ))
                    stored = storesSession ? sessions.cookieOnceStored(for: resolution, at: now / 1000) : nil
                } catch let unchanged as NothingChanged {
                    // Nothing was stored, so there is no new id whose cookie to set.
                    response = unchanged.answer
                }
                // Browsers apply the last cookie of a name: one the handler set (sign-out's new
                // session) must not be overridden by the renewal of the session it replaced.
                if let cookie = stored ?? resolution.cookie, !Self.setsCookie(named: cookie.name, in: response) {
                    response.setCookie(cookie)
                }
                return response
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
    private static let retryAfter = "5"

    /// A handler for a form post: as ``page(storesSession:_:)``, after checking the CSRF token
    /// and origin. Every post that succeeds stores its session (the first change of a cart,
    /// name or preferences), except where `storesSession` says otherwise.
    private func action(_ body: @escaping @Sendable (ShopRequest) throws -> Response, storesSession: Bool = true) -> Router.Handler {
        let sessions = sessions
        return page(storesSession: storesSession) { request in
            try sessions.verify(request.http, for: request.session)
            return try body(request)
        }
    }
}

/// Thrown by a form post's handler that found nothing to change and wrote nothing: `answer` is
/// sent as it is, without the cookie of the id a first change stores the session under.
struct NothingChanged: Error {
    let answer: Response
}
