import MicroHTTP

/// An API request with the client its bearer token names, that client's shopper and cart, read
/// together from storage for this request alone (a token signed out is refused at once).
struct APIRequest {
    let http: Request
    let session: Session
    /// The shopper's cart as it was when the request began, at ``cartVersion``.
    let cart: Cart
    let cartVersion: Int64
    /// Seconds since 1970 (UTC).
    let now: Int64

    /// The `If-Match` condition on the cart: `nil` without one (or with `*` alone), else the
    /// version the change is conditional on, to be checked again in the change's own transaction.
    /// - Throws: ``APIProblem/Kind/staleCart`` at once when no tag it lists is the cart's
    ///   version now (a tag that is not a version, or a weak one, never matches), or when `*`
    ///   is not the one value of all its fields (RFC 9110 allows it only alone: malformed).
    func ifMatchVersion() throws(APIProblem) -> Int64? {
        let fields = http.headers.values(named: "If-Match")
        guard !fields.isEmpty else { return nil }
        let tags = fields.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingWhitespace() }
        if tags.contains("*") {
            guard tags.count == 1 else { throw stale(cart, version: cartVersion) }
            return nil
        }
        let current = APIRequest.etag(of: cartVersion)
        guard tags.contains(current) else { throw stale(cart, version: cartVersion) }
        return cartVersion
    }

    /// The `stale-cart` problem, carrying `cart` at `version` and its `ETag`; `detail` says
    /// what was stale (by default, the version `If-Match` named).
    func stale(_ cart: Cart, version: Int64, detail: String? = nil) -> APIProblem {
        var problem = APIProblem(
            .staleCart, detail ?? "The cart is at version \(version) now, not the one If-Match named: it changed since it was read.",
            headers: [("ETag", APIRequest.etag(of: version))]
        )
        problem.cart = APIModels.cartBytes(cart, version: version)
        return problem
    }

    /// The strong entity tag of a cart version: `"17"`.
    static func etag(of version: Int64) -> String {
        "\"" + String(version) + "\""
    }

    /// The product id in the path (`/api/v1/cart/lines/:productId`).
    /// - Throws: ``APIProblem/Kind/notFound`` unless it is an id as the shop spells it (``RecordID``).
    func pathID(_ name: String) throws(APIProblem) -> Int64 {
        guard let text = http.routeParameters[name], let id = RecordID.parse(text) else {
            throw APIProblem(.notFound, "There is no such item.")
        }
        return id
    }
}
