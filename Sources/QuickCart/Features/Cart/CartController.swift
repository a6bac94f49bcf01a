import MicroHTTP

/// The Cart tab and every form that changes a cart: add, the quantity steppers, remove and
/// checkout. Each change commits, tells the session's open tabs the new count, then answers
/// 303 back to the page the form came from.
struct CartController: Sendable {
    let catalog: Catalog
    let carts: CartStore
    let hub: BadgeHub
    let pages: PageRenderer
    let icons: IconSet

    func show(_ request: ShopRequest) throws -> Response {
        let cart = try carts.cart(for: request.session)
        let content = CartViewModel(cart: cart, csrfToken: request.session.csrfToken, icons: icons)
        return pages.render(
            .init(template: "cart", title: "Cart", tab: .cart, cartCount: cart.itemCount, content: content.mustacheValue, returnTo: "/cart"),
            session: request.session, places: request.places, notice: request.notice
        )
    }

    /// `POST /cart/items` with `product`: one more of it, up to the maximum.
    func add(_ request: ShopRequest) throws -> Response {
        let id = try request.integer("product", named: "product")
        guard let product = catalog.product(id: Int64(clamping: id)) else {
            throw HTTPError(.notFound, "That product is not in our catalog.")
        }
        let before = try carts.cart(for: request.session)
        let change = try carts.add(productID: product.id, for: request.session, at: request.now)
        let quantity = before.quantity(of: product.id) + change.itemCount - before.itemCount
        let notice = quantity >= Cart.quantityRange.upperBound
            ? Self.limitNotice(product.name, changed: change.itemCount != before.itemCount)
            : "Added \(product.name) — \(quantity) in cart"
        return committed(change, request, returnTo: Self.anchored(request.returnPath(default: "/cart"), at: product.id), notice: notice)
    }

    /// `POST /cart/items/:id/quantity` with `quantity`: clamped into 1...10.
    func setQuantity(_ request: ShopRequest) throws -> Response {
        let productID = try request.productID()
        let quantity = try request.integer("quantity", named: "quantity")
        do {
            let before = try carts.cart(for: request.session)
            let change = try carts.setQuantity(quantity, of: productID, for: request.session, at: request.now)
            let name = catalog.product(id: productID)?.name ?? "The item"
            let after = before.quantity(of: productID) + change.itemCount - before.itemCount
            let notice = after >= Cart.quantityRange.upperBound
                ? Self.limitNotice(name, changed: change.itemCount != before.itemCount)
                : "\(name) — \(after) in cart"
            return committed(change, request, returnTo: Self.anchored(request.returnPath(default: "/cart"), at: productID), notice: notice)
        } catch CartError.notInCart {
            throw HTTPError(.notFound, "That item is not in your cart.")
        }
    }

    /// `POST /cart/items/:id/remove`.
    func remove(_ request: ShopRequest) throws -> Response {
        let productID = try request.productID()
        let before = try carts.cart(for: request.session)
        let change = try carts.remove(productID: productID, for: request.session, at: request.now)
        // The row is gone: the place to come back to is the row after it, or else the one before.
        let index = before.items.firstIndex { $0.product.id == productID }
        let rest = before.items.filter { $0.product.id != productID }
        let neighbour = index.flatMap { rest.indices.contains($0) ? rest[$0] : rest.last }
        let returnTo = request.returnPath(default: "/cart")
        let name = catalog.product(id: productID)?.name ?? "the item"
        return committed(
            change, request,
            returnTo: neighbour.map { Self.anchored(returnTo, at: $0.product.id) } ?? Self.withoutFragment(returnTo),
            notice: "Removed \(name)"
        )
    }

    /// `POST /cart/checkout`: the cart becomes an order; the answer leads to its confirmation.
    func checkout(_ request: ShopRequest) throws -> Response {
        do {
            let (orderID, change) = try carts.checkout(for: request.session, at: request.now)
            return committed(change, request, returnTo: "/profile?order=\(orderID)#order-confirmation")
        } catch CartError.emptyCart {
            throw HTTPError(.badRequest, "Your cart is empty, so there is nothing to check out.")
        }
    }

    private func committed(_ change: CartChange, _ request: ShopRequest, returnTo path: String, notice: String? = nil) -> Response {
        hub.publish(change, sessionID: request.session.id)
        var response = Response.redirect(to: path)
        if let notice { response.setCookie(Notice.cookie(notice)) }
        return response
    }

    /// What Add or "+" says at the limit, whether or not it still added one.
    private static func limitNotice(_ name: String, changed: Bool) -> String {
        let limit = "You can have at most \(Cart.quantityRange.upperBound) of \(name)"
        return changed ? "\(limit) — \(Cart.quantityRange.upperBound) in cart" : limit
    }

    /// `path` leading to the row of `productID`, so the browser scrolls back to it: a cart row
    /// (`#item-3`) on the cart page, a product card (`#product-3`) on Home and Search.
    static func anchored(_ path: String, at productID: Int64) -> String {
        let page = withoutFragment(path)
        let isCart = page == "/cart" || page.hasPrefix("/cart?")
        return page + (isCart ? "#item-" : "#product-") + String(productID)
    }

    private static func withoutFragment(_ path: String) -> String {
        path.firstIndex(of: "#").map { String(path[..<$0]) } ?? path
    }
}
