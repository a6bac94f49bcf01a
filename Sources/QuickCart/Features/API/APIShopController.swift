import MicroHTTP

/// The catalog, search, checkout and orders through the API: the catalog the pages show, the
/// search the Search tab runs, and the ``CartStore`` checkout the web's Checkout button runs.
struct APIShopController: Sendable {
    let catalogDisplay: CatalogDisplay
    let sessions: any SessionStore
    let productSearch: any ProductSearchStore
    let carts: any CartStore
    let orders: any OrderStore
    let deliveryMethods: any DeliveryMethodStore
    let deliveryDetails: any DeliveryDetailsStore
    let publisher: any BadgePublisher
    let catalogUpdates: CatalogUpdates
    let sessionManager: SessionManager

    /// The most results a search answers, as the Search tab shows.
    static let searchLimit = 50

    /// `GET /api/v1/catalog`: every product for sale, in catalog order.
    func catalog(_ http: Request) -> Response {
        let products = catalogDisplay.current.catalog.products
        return APIAnswer.json(capacity: 256 + products.count * 400) { json in
            json.object { json in
                json.field("products") { APIModels.products(products, into: &$0) }
            }
        }
    }

    /// `GET /api/v1/catalog/:id`: one product, also one no longer for sale (carts may hold it).
    func product(_ http: Request) throws -> Response {
        guard let id = http.routeParameters["id"].flatMap(RecordID.parse), let product = catalogDisplay.current.catalog.product(id: id) else {
            throw APIProblem(.notFound, "There is no such product.")
        }
        return APIAnswer.json(capacity: 512) { APIModels.product(product, into: &$0) }
    }

    /// `GET /api/v1/search?q=text`: the products matching, best first (none for an empty query).
    /// It reads only: an app's searches are not kept among the shopper's recent ones.
    func search(_ http: Request) throws -> Response {
        let sent = http.query["q"] ?? ""
        guard APIText.admits(sent, maxLength: SearchController.queryLimit.characters) else {
            throw APIProblem(
                .invalidValue, "A search is at most \(SearchController.queryLimit.characters) Unicode code points, without control characters.", field: "q"
            )
        }
        // As the web's search reads it: bidirectional controls find nothing.
        let query = sent.removingBidiControls.trimmingWhitespace()
        let catalog = catalogDisplay.current.catalog
        let found = query.isEmpty ? [] : try productSearch.searchProducts(matching: query, limit: Self.searchLimit).compactMap(catalog.product(id:))
        return APIAnswer.json(capacity: 256 + found.count * 400) { json in
            json.object { json in
                json.field("query") { $0.string(query) }
                json.field("products") { APIModels.products(found, into: &$0) }
            }
        }
    }

    /// `GET /api/v1/delivery-methods`: how the shop delivers, and where.
    func methods(_ http: Request) throws -> Response {
        let methods = try deliveryMethods.deliveryMethods()
        return APIAnswer.json { json in
            json.object { json in
                json.field("methods") { json in json.array { json in for method in methods { APIDelivery.method(method, into: &json) } } }
            }
        }
    }

    /// `POST /api/v1/checkout` (`{"delivery": {…}}`, else the shopper's saved details): the cart as
    /// this request read it becomes an order, as the web's "Place order" does, at exactly the
    /// `lines` the shopper confirmed when the app sends them (``APICheckoutLines``), once per intent:
    /// the `Idempotency-Key` when sent (the same key again returns the order it placed, 200 with
    /// `Idempotent-Replayed: true`, and places none), else the cart's version as read (which,
    /// ordered by another request first, is a cart that moved: `stale-cart`).
    func checkout(_ request: APIRequest) throws -> Response {
        let intent = try Self.intent(of: request)
        // A key's order is its answer before anything else is checked: a retry must not be
        // refused because the shop's methods or the saved details changed since it was placed.
        if intent.isIdempotencyKey, let order = try orders.order(intent: intent, for: request.session) {
            // A body that cannot be read is not the request that placed the order.
            let asked = try? { () throws(APIProblem) -> Bool in
                let body = try APIBody.read(request.http, fields: APIDelivery.checkoutFields)
                return asks(for: order, given: APIDelivery.details(in: body), lines: try APICheckoutLines.lines(in: body))
            }()
            return try replay(order, asksTheSame: asked ?? false)
        }
        let body = try APIBody.read(request.http, fields: APIDelivery.checkoutFields)
        let given = APIDelivery.details(in: body)
        let confirmed = try APICheckoutLines.lines(in: body)
        // The web's checkout asks for delivery details; so does this one.
        guard let details = try given ?? deliveryDetails.deliveryDetails(for: request.session)?.details else {
            throw APIProblem(
                .deliveryRequired, "Checkout needs delivery details: send them as “delivery”, or save them on the web's checkout first.",
                field: "delivery"
            )
        }
        // The lines the app says the shopper confirmed, else the cart as this request read it.
        let shown = confirmed ?? OrderPlacement.lines(of: request.cart)
        let delivery = try APIDelivery.delivery(
            details, methods: try deliveryMethods.deliveryMethods(), subtotal: OrderPlacement.subtotal(of: shown), saved: given == nil
        )
        let placed: PlacedOrder
        do {
            placed = try carts.placeOrder(OrderPlacement(intent: intent, shownLines: shown, delivery: delivery), for: request.session, at: request.now)
        } catch CartError.changedSinceShown {
            // Another change came between this request's read and the placing, or an import
            // this instance has not taken yet (it checks every two seconds): take it now, so
            // that the cart the answer carries has the prices the placing checked.
            _ = try? catalogUpdates.takeNewCatalog()
            let detail = confirmed == nil
                ? "The cart changed while the order was being placed; nothing was ordered. Show it again."
                : "The cart or its prices are no longer the lines sent; nothing was ordered. Show the cart as it is now again."
            throw try cartNow(request, detail: detail)
        } catch CartError.emptyCart {
            throw APIProblem(.emptyCart, "The cart is empty, so there is nothing to check out.")
        } catch CartError.nothingForSale {
            throw APIProblem(.nothingForSale, "Nothing in the cart is for sale any more; remove those lines to continue.")
        }
        // Without a key the intent is the cart version this request read, and another request
        // (the web's Place order, a paired device) ordered that version first: the cart moved
        // under this one, which sent no key to blame or to replay.
        if !placed.isNew, !intent.isIdempotencyKey {
            throw try cartNow(
                request, detail: "The cart was placed as order \(placed.orderID) by another request after this one read it; nothing more was ordered. Show it again."
            )
        }
        if let change = placed.change { publisher.publish(change, for: request.session) }
        // Placing stored the client if this was its first change.
        var session = request.session
        session.isStored = true
        guard let order = try orders.order(id: placed.orderID, for: session) else {
            throw APIProblem(.internalError, "The order was placed but could not be read back.")
        }
        // Another request with the same key placed it first.
        if !placed.isNew { return try replay(order, asksTheSame: asks(for: order, given: given, lines: confirmed)) }
        var response = answer(order, status: .created)
        response.headers["Location"] = "/api/v1/orders/" + order.number
        return response
    }

    /// The `stale-cart` problem of a checkout whose cart moved since `request` read it, carrying
    /// the cart as stored now.
    private func cartNow(_ request: APIRequest, detail: String) throws -> APIProblem {
        guard case .active(let stored)? = try sessions.session(clientID: request.session.clientID) else {
            // Not stored yet (the placing was undone with its first change): its starting cart now.
            return request.stale(sessionManager.startingCart(of: request.session), version: request.cartVersion, detail: detail)
        }
        return request.stale(stored.cart, version: stored.cartVersion, detail: detail)
    }

    /// The intent of a checkout: its `Idempotency-Key`, else the cart's version as read.
    /// - Throws: ``APIProblem/Kind/badRequest`` for a key that is not one field of 1 to 255
    ///   visible ASCII characters.
    private static func intent(of request: APIRequest) throws(APIProblem) -> OrderIntent {
        guard let key = request.http.headers["Idempotency-Key"] else { return .review(cartVersion: request.cartVersion) }
        guard request.http.headers.values(named: "Idempotency-Key").count == 1, let keyed = OrderIntent(idempotencyKey: key) else {
            throw APIProblem(
                .badRequest, "Idempotency-Key must be one field of 1 to \(OrderIntent.maximumKeyLength) visible ASCII characters.",
                field: "Idempotency-Key"
            )
        }
        return keyed
    }

    /// Whether a request that sent the delivery details `given` and the `lines` (each `nil`
    /// when not sent) asks for `order`: the same details, the same lines.
    private func asks(for order: Order, given: DeliveryDetails?, lines: [OrderPlacement.ShownLine]?) -> Bool {
        if let given {
            // An order collected in the store kept no address, whatever was sent with it.
            let kept = order.delivery?.isCollected == true ? given.withoutAddress : given
            guard kept == order.delivery?.details else { return false }
        }
        guard let lines else { return true }
        return APICheckoutLines.are(lines, of: order, catalog: catalogDisplay.current.catalog)
    }

    /// The answer to a key that placed `order` already: the order again, when the request
    /// asks the same as the one that placed it.
    /// - Throws: ``APIProblem/Kind/idempotencyKeyReused`` when it asks for something else.
    private func replay(_ order: Order, asksTheSame: Bool) throws(APIProblem) -> Response {
        guard asksTheSame else {
            throw APIProblem(
                .idempotencyKeyReused, "This Idempotency-Key placed order \(order.number) for another request; use a new key for a new order.",
                field: "Idempotency-Key"
            )
        }
        var response = answer(order, status: .ok)
        response.headers["Location"] = "/api/v1/orders/" + order.number
        response.headers["Idempotent-Replayed"] = "true"
        return response
    }

    /// `GET /api/v1/orders`: the shopper's orders, newest first.
    func list(_ request: APIRequest) throws -> Response {
        let placed = try orders.orders(for: request.session)
        let catalog = catalogDisplay.current.catalog
        return APIAnswer.json(capacity: 256 + placed.count * 600) { json in
            json.object { json in
                json.field("orders") { json in
                    json.array { json in
                        for order in placed { APIModels.order(order, catalog: catalog, into: &json) }
                    }
                }
            }
        }
    }

    /// `GET /api/v1/orders/:id`: one of the shopper's orders; any other number is 404, so
    /// nobody learns which numbers are in use.
    func show(_ request: APIRequest) throws -> Response {
        guard let id = request.http.routeParameters["id"].flatMap(RecordID.parse), let order = try orders.order(id: id, for: request.session) else {
            throw APIProblem(.notFound, "There is no such order.")
        }
        let catalog = catalogDisplay.current.catalog
        return APIAnswer.json { APIModels.order(order, catalog: catalog, into: &$0) }
    }

    /// `{"order": Order}`.
    func answer(_ order: Order, status: HTTPStatus) -> Response {
        let catalog = catalogDisplay.current.catalog
        return APIAnswer.json(status: status) { json in
            json.object { json in
                json.field("order") { APIModels.order(order, catalog: catalog, into: &$0) }
            }
        }
    }
}
