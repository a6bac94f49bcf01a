/// The calls of the API that read the catalog and make, join and sign out clients.
extension QuickCartClient {
    // MARK: - Clients and devices

    /// `POST /api/v1/clients`: a new shopper with this app as its one client. Needs no token;
    /// use the returned token with ``withToken(_:)``.
    /// - Parameter device: What the devices list calls this client ("iPhone"), up to 60 characters.
    /// - Throws: ``QuickCartError/rateLimited(retryAfter:problem:)`` when this address made too
    ///   many clients lately.
    public func createClient(device: String? = nil) async throws(QuickCartError) -> Registration {
        try await fetch(request("POST", ["clients"]), body: NewClient(device: device))
    }

    /// `POST /api/v1/client/join`: makes this client one of the shopper who showed `code`
    /// (the web's "Continue on another device", `BCDF-GHJK` (two groups of four letters)); this client's own lines are added
    /// to that shopper's cart, and its orders and saved delivery details come along (the
    /// shopper's own details win) when the cart it leaves was its alone.
    /// - Throws: ``QuickCartError/invalidCode(_:)`` for a wrong, expired or used code.
    public func join(code: String) async throws(QuickCartError) -> JoinResult {
        try await fetch(request("POST", ["client", "join"]), body: JoinCode(code: code))
    }

    /// `GET /api/v1/devices`: the shopper's devices, browsers and apps.
    public func devices() async throws(QuickCartError) -> [Device] {
        try await fetch(request("GET", ["devices"]), as: DeviceList.self).devices
    }

    /// `DELETE /api/v1/devices/{id}`: signs a device out; its token or cookie gets 401 from
    /// then on and its open streams end.
    public func signOut(deviceID: String) async throws(QuickCartError) {
        _ = try await send(request("DELETE", ["devices", deviceID]))
    }

    // MARK: - Catalog

    /// `GET /api/v1/catalog`: every product for sale.
    public func catalog() async throws(QuickCartError) -> [Product] {
        try await fetch(request("GET", ["catalog"]), as: ProductList.self).products
    }

    /// `GET /api/v1/catalog/{id}`: one product.
    /// - Throws: ``QuickCartError/notFound(_:)`` when there is no such product.
    public func product(id: String) async throws(QuickCartError) -> Product {
        try await fetch(request("GET", ["catalog", id]))
    }

    /// `GET /api/v1/search?q=…`: the products matching `query`, as the web's Search finds them.
    public func search(_ query: String) async throws(QuickCartError) -> SearchResult {
        try await fetch(request("GET", ["search"], query: [("q", query)]))
    }

    // MARK: - Orders

    /// `POST /api/v1/checkout`: places an order of the cart.
    ///
    /// Send the same `idempotencyKey` (1 to 255 visible ASCII characters, e.g. a UUID made
    /// once per tap) when retrying after a timeout: the server answers with the order that key
    /// placed and places no second one (``CheckoutResult/isReplay``). Without a key, a retry of
    /// the same cart version is answered the same way.
    /// `delivery` says where the order goes; without it the shopper's saved details (from a
    /// checkout on the web) are used. `confirming` is the cart the shopper saw when they
    /// confirmed: the order is then placed only at exactly its lines for sale and their prices,
    /// and a cart or a price that moved since is ``QuickCartError/staleCart(current:problem:)``
    /// with the cart as it is now, to show again. Without it, the cart is placed as the server reads it.
    /// - Throws: ``QuickCartError/emptyCart(_:)``, ``QuickCartError/nothingForSale(_:)``,
    ///   ``QuickCartError/deliveryRequired(_:)`` with no details sent or saved,
    ///   ``QuickCartError/invalidValue(field:problem:)`` for details the shop refuses, or
    ///   ``QuickCartError/badRequest(field:problem:)`` for a key that is not 1 to 255 visible
    ///   ASCII characters.
    public func checkout(
        idempotencyKey: String? = nil, delivery: DeliveryDetails? = nil, confirming cart: Cart? = nil
    ) async throws(QuickCartError) -> CheckoutResult {
        let headers = idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:]
        let answer = try await send(request("POST", ["checkout"], headers: headers), body: CheckoutBody(delivery: delivery, confirming: cart))
        let placed = try answer.decode(PlacedOrder.self)
        return CheckoutResult(order: placed.order, isReplay: answer.replayed?.lowercased() == "true")
    }

    /// `GET /api/v1/delivery-methods`: how the shop delivers, in its order, for a Delivery
    /// form's choices (a ``DeliveryDetails/method`` is one of their codes).
    public func deliveryMethods() async throws(QuickCartError) -> [DeliveryMethod] {
        try await fetch(request("GET", ["delivery-methods"]), as: DeliveryMethodList.self).methods
    }

    /// `GET /api/v1/orders`: the shopper's orders, newest first.
    public func orders() async throws(QuickCartError) -> [Order] {
        try await fetch(request("GET", ["orders"]), as: OrderList.self).orders
    }

    /// `GET /api/v1/orders/{id}`: one of the shopper's orders.
    /// - Throws: ``QuickCartError/notFound(_:)`` when it is no order of this shopper.
    public func order(id: String) async throws(QuickCartError) -> Order {
        try await fetch(request("GET", ["orders", id]))
    }
}

// The bodies the calls send and the envelopes they read: exactly the API's fields.

struct NewClient: Codable, Sendable {
    let device: String?
}

struct JoinCode: Codable, Sendable {
    let code: String
}

struct DeviceList: Decodable {
    let devices: [Device]
}

struct ProductList: Decodable {
    let products: [Product]
}

struct PlacedOrder: Decodable {
    let order: Order
}

struct DeliveryMethodList: Decodable {
    let methods: [DeliveryMethod]
}

struct OrderList: Decodable {
    let orders: [Order]
}
