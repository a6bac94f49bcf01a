import MicroHTTP

extension APIRoutes: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) {
        let storage = shop.storage
        let cart = APICartController(catalogDisplay: shop.catalogDisplay, carts: storage.carts, sessions: storage.sessions, publisher: shop.publisher)
        let api = APIRoutes(
            sessionManager: shop.sessionManager,
            cart: cart,
            clients: APIClientsController(
                sessionManager: shop.sessionManager, sessions: storage.sessions, storage: storage, joining: shop.joining, creations: .clientCreations(),
                events: EventsController(hub: shop.hub), cart: cart
            ),
            shop: APIShopController(
                catalogDisplay: shop.catalogDisplay, sessions: storage.sessions, productSearch: storage.productSearch, carts: storage.carts, orders: storage.orders,
                deliveryMethods: storage.deliveryMethods, deliveryDetails: storage.deliveryDetails, publisher: shop.publisher,
                catalogUpdates: CatalogUpdates(storage: storage, hub: shop.hub), sessionManager: shop.sessionManager
            ),
            document: APIDocument(staticFiles: shop.staticFiles),
            metrics: routes.metrics,
            clock: shop.clock
        )
        api.register(in: &routes)
    }
}

/// The routes of `/api/v1`, and how each request becomes an API request: a bearer token read
/// from `Authorization` (no cookie, so no CSRF token; CORS is not opened), its client looked up
/// afresh, and every failure answered as a problem.
struct APIRoutes: Sendable {
    let sessionManager: SessionManager
    let cart: APICartController
    let clients: APIClientsController
    let shop: APIShopController
    let document: APIDocument
    let metrics: ShopMetrics
    let clock: Clock

    /// Seconds a client should wait after storage was unavailable.
    static let retryAfter = "5"

    func register(in router: inout ShopRouter) {
        let document = document
        router.serve("/api/v1/openapi.json") { try document.response(for: $0) }
        router.serve("/api/v1/problems/:slug") { request in
            guard let kind = APIProblem.Kind(rawValue: request.routeParameters["slug"] ?? "") else {
                return APIProblem(.notFound, "There is no such problem type.").response
            }
            var response = Response.text("\(kind.title) (\(kind.status.code))\n\n\(kind.explanation)\n")
            response.headers["Cache-Control"] = "public, max-age=3600"
            return response
        }
        router.on(.post, "/api/v1/clients", handler: open { try clients.create($0, now: $1) })
        router.on(.get, "/api/v1/catalog", handler: open { request, _ in shop.catalog(request) })
        router.on(.get, "/api/v1/catalog/:id", handler: open { request, _ in try shop.product(request) })
        router.on(.get, "/api/v1/search", handler: open { request, _ in try shop.search(request) })
        router.on(.get, "/api/v1/delivery-methods", handler: open { request, _ in try shop.methods(request) })

        router.on(.post, "/api/v1/client/join", handler: authorized(clients.join))
        router.on(.get, "/api/v1/cart", handler: authorized(cart.show))
        router.on(.post, "/api/v1/cart/lines", handler: authorized(cart.add))
        router.on(.put, "/api/v1/cart/lines/:productId", handler: authorized(cart.setQuantity))
        router.on(.patch, "/api/v1/cart/lines/:productId", handler: authorized(cart.adjust))
        router.on(.delete, "/api/v1/cart/lines/:productId", handler: authorized(cart.remove))
        router.on(.post, "/api/v1/checkout", handler: authorized(shop.checkout))
        router.on(.get, "/api/v1/orders", handler: authorized(shop.list))
        router.on(.get, "/api/v1/orders/:id", handler: authorized(shop.show))
        router.on(.get, "/api/v1/devices", handler: authorized(clients.devices))
        router.on(.delete, "/api/v1/devices/:id", handler: authorized(clients.signOut))
        router.on(.get, "/api/v1/events", handler: authorized(clients.events))
    }

    /// A handler that needs no token (a token sent anyway is not looked at).
    private func open(_ body: @escaping @Sendable (Request, Int64) throws -> Response) -> Router.Handler {
        let clock = clock
        return answering { request in try body(request, clock.nowMilliseconds() / 1000) }
    }

    /// A handler for the client of the request's bearer token.
    private func authorized(_ body: @escaping @Sendable (APIRequest) throws -> Response) -> Router.Handler {
        let sessionManager = sessionManager, clock = clock
        return answering { request in
            let now = clock.nowMilliseconds() / 1000
            let token = try Self.bearerToken(in: request)
            guard let resolution = try sessionManager.resolve(bearer: token, at: now) else {
                throw APIProblem(
                    .unauthorized, "The bearer token is not valid: it was signed out, has expired, or was never this shop's.",
                    headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)]
                )
            }
            return try body(APIRequest(
                http: request, session: resolution.session, cart: resolution.cart, cartVersion: resolution.cartVersion, now: now
            ))
        }
    }

    /// The token of the one `Authorization: Bearer TOKEN` field.
    private static func bearerToken(in request: Request) throws(APIProblem) -> Substring {
        let fields = request.headers.values(named: "Authorization")
        guard let field = fields.first else {
            throw APIProblem(.unauthorized, "This request needs Authorization: Bearer TOKEN, with a token from POST /api/v1/clients.",
                             headers: [("WWW-Authenticate", "Bearer")])
        }
        let scheme = field.prefix { $0 != " " }
        let token = field.dropFirst(scheme.count).drop { $0 == " " }
        guard fields.count == 1, scheme.lowercased() == "bearer", !token.isEmpty, !token.contains(" ") else {
            throw APIProblem(.unauthorized, "Authorization must be one field: Bearer TOKEN.",
                             headers: [("WWW-Authenticate", #"Bearer error="invalid_request""#)])
        }
        return token
    }

    /// Runs `body`, answering whatever it throws as a problem.
    private func answering(_ body: @escaping @Sendable (Request) throws -> Response) -> Router.Handler {
        let metrics = metrics
        return { request in
            do {
                return try body(request)
            } catch let problem as APIProblem {
                return problem.response
            } catch StorageError.signedOut {
                // The token was revoked after the request read it, as for one revoked before.
                return APIProblem(
                    .unauthorized, "This device was signed out while the request was on its way, so nothing was changed.",
                    headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)]
                ).response
            } catch StorageError.unavailable(let reason) {
                // The transaction rolled back: nothing changed, and the same request will work
                // once the cause goes.
                metrics.countStorageUnavailable()
                Log.error("\(request.method) \(request.path): storage unavailable: \(reason)")
                return APIProblem(
                    .unavailable, "The shop cannot save or read data right now, so nothing was changed. Please try again in a moment.",
                    headers: [("Retry-After", Self.retryAfter)]
                ).response
            } catch let error as HTTPError {
                return APIProblem.from(error).response
            } catch {
                Log.error("\(request.method) \(request.path) failed: \(error)")
                return APIProblem(.internalError, "Something went wrong on the shop's side. Please try again.").response
            }
        }
    }
}
