import MicroHTTP

/// `/api/v1/cart`: the shopper's cart, and its changes through the same ``CartStore`` the web's
/// forms use (the same clamping, the same one-transaction changes, the same news to every
/// stream of the shopper). Every answer is the cart with its `ETag`; a change with a stale
/// `If-Match` is refused with 412 and the current cart.
struct APICartController: Sendable {
    let catalogDisplay: CatalogDisplay
    let carts: any CartStore
    let sessions: any SessionStore
    let publisher: any BadgePublisher

    /// `GET /api/v1/cart`.
    func show(_ request: APIRequest) throws -> Response {
        APIAnswer.cart(request.cart, version: request.cartVersion)
    }

    /// `POST /api/v1/cart/lines` `{"productId": "12", "quantity": 1}`: adds that many (1 when
    /// left out) after the lines there, or to the line there, up to the maximum.
    func add(_ request: APIRequest) throws -> Response {
        let body = try APIBody.read(request.http, fields: ["productId": .string, "quantity": .integer], required: ["productId"])
        let quantity = try Self.quantity(body.integer("quantity") ?? 1, field: "quantity")
        let text = body.string("productId") ?? ""
        guard let id = RecordID.parse(text), let product = catalogDisplay.current.catalog.product(id: id) else {
            throw APIProblem(.invalidValue, "There is no product “\(LogLine.printable(text, limit: 40))” in the catalog.", field: "productId")
        }
        guard product.isActive else {
            throw APIProblem(.productUnavailable, "\(product.name) is no longer available.", field: "productId")
        }
        let expected = try request.ifMatchVersion()
        return try changed(request, after: { cart in
            if let index = cart.items.firstIndex(where: { $0.product.id == product.id }) {
                cart.items[index].quantity = Cart.clamp(cart.items[index].quantity + quantity)
            } else {
                cart.items.append(Cart.Item(product: product, quantity: quantity))
            }
        }) {
            try carts.add(productID: product.id, quantity: quantity, for: request.session, at: request.now, ifVersion: expected, key: nil)
        }
    }

    /// `PUT /api/v1/cart/lines/:productId` `{"quantity": 3}`: sets the line's quantity.
    func setQuantity(_ request: APIRequest) throws -> Response {
        let productID = try request.pathID("productId")
        let body = try APIBody.read(request.http, fields: ["quantity": .integer], required: ["quantity"])
        let quantity = try Self.quantity(body.integer("quantity") ?? 0, field: "quantity")
        try refuseMore(of: productID, rising: quantity > request.cart.quantity(of: productID), request)
        let expected = try request.ifMatchVersion()
        return try changed(request, after: { cart in
            for index in cart.items.indices where cart.items[index].product.id == productID { cart.items[index].quantity = quantity }
        }) {
            try carts.setQuantity(quantity, of: productID, for: request.session, at: request.now, ifVersion: expected, key: nil)
        }
    }

    /// `PATCH /api/v1/cart/lines/:productId` `{"difference": -1}`: moves the quantity stored now
    /// by the difference, clamped into 1...10 as the web's steppers are, so presses on two
    /// devices that showed the same quantity both count.
    func adjust(_ request: APIRequest) throws -> Response {
        let productID = try request.pathID("productId")
        let body = try APIBody.read(request.http, fields: ["difference": .integer], required: ["difference"])
        let difference = body.integer("difference") ?? 0
        let width = Cart.quantityRange.upperBound - Cart.quantityRange.lowerBound
        guard difference != 0, (-width...width).contains(difference) else {
            throw APIProblem(.invalidValue, "The difference must be a whole number from -\(width) to \(width), and not 0.", field: "difference")
        }
        try refuseMore(of: productID, rising: difference > 0, request)
        let expected = try request.ifMatchVersion()
        return try changed(request, after: { cart in
            for index in cart.items.indices where cart.items[index].product.id == productID {
                cart.items[index].quantity = Cart.clamp(cart.items[index].quantity + difference)
            }
        }) {
            try carts.adjustQuantity(by: difference, of: productID, for: request.session, at: request.now, ifVersion: expected, key: nil)
        }
    }

    /// `DELETE /api/v1/cart/lines/:productId`: removes the line. Removing a line the cart does
    /// not hold changes nothing and answers the cart as it is.
    func remove(_ request: APIRequest) throws -> Response {
        let productID = try request.pathID("productId")
        let expected = try request.ifMatchVersion()
        guard request.cart.quantity(of: productID) > 0 else { return APIAnswer.cart(request.cart, version: request.cartVersion) }
        return try changed(request, after: { $0.items.removeAll { $0.product.id == productID } }) {
            try carts.remove(productID: productID, for: request.session, at: request.now, ifVersion: expected)
        }
    }

    /// A quantity within 1...10, or the problem naming `field`.
    static func quantity(_ value: Int, field: String) throws(APIProblem) -> Int {
        guard Cart.quantityRange.contains(value) else {
            throw APIProblem(
                .invalidValue, "The \(field) must be from \(Cart.quantityRange.lowerBound) to \(Cart.quantityRange.upperBound).", field: field
            )
        }
        return value
    }

    /// The web's rule: a product no longer for sale cannot be increased (it can be decreased or removed).
    private func refuseMore(of productID: Int64, rising: Bool, _ request: APIRequest) throws(APIProblem) {
        guard rising, let product = catalogDisplay.current.catalog.product(id: productID), !product.isActive else { return }
        throw APIProblem(.productUnavailable, "\(product.name) is no longer available, so you cannot add more of it.")
    }

    /// Runs a change, tells every stream of the shopper, and answers the cart as it is now:
    /// the request's cart with `after` applied (the store's rule, clamping included) when the
    /// change's version is the very next one, so no other change came in between; else read.
    private func changed(_ request: APIRequest, after: (inout Cart) -> Void, _ change: () throws -> CartChange) throws -> Response {
        let committed: CartChange
        do {
            committed = try change()
            publisher.publish(committed, for: request.session)
        } catch CartError.notInCart {
            throw APIProblem(.notFound, "That product is not in the cart.")
        } catch CartError.staleVersion {
            let (cart, version) = try current(request)
            throw request.stale(cart, version: version)
        }
        var cart = request.cart
        after(&cart)
        guard committed.version == request.cartVersion + 1, committed.itemCount == cart.itemCount else {
            let (cart, version) = try current(request)
            return APIAnswer.cart(cart, version: version)
        }
        return APIAnswer.cart(cart, version: committed.version)
    }

    /// The cart as stored now, read with its version (the client is stored by its first change).
    func current(_ request: APIRequest) throws -> (Cart, Int64) {
        guard case .active(let stored)? = try sessions.session(clientID: request.session.clientID) else {
            return (request.cart, request.cartVersion)
        }
        return (stored.cart, stored.cartVersion)
    }
}
