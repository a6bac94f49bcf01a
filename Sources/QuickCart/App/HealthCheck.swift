import MicroHTTP

/// `GET /healthz`: `ok` while storage can be reached, else 503 with `Retry-After`. (Counts are
/// for the operator's metrics listener, not for anyone who can reach the shop.)
enum HealthCheck: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let storage = shop.storage
        routes.serve("/healthz") { _ in
            var response: Response
            do {
                try storage.ping()
                response = Response.text("ok\n")
            } catch {
                // Whatever failed, this instance should not get traffic for now.
                Log.error("health check: \(error)")
                response = Response.text("unavailable\n", status: .serviceUnavailable)
                response.headers["Retry-After"] = ShopRouter.retryAfter
            }
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }
}
