import MicroHTTP

/// The Cart tab and every form that changes a cart: add, the quantity steppers, remove and
/// checkout. Each change commits, tells the session's open tabs the new count, then answers
/// 303 back to the page the form came from.
struct CartController: Sendable {
    let shelf: LiveCatalog
    let carts: any CartStore
    let publisher: any BadgePublisher
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let cart = request.cart
        return pages.render(
            CartView(cart: cart, cards: shelf.current.cards), .init(title: "Cart", tab: .cart, cartCount: cart.itemCount, returnTo: "/cart"),
            session: request.session, places: request.places
        )
    }

    /// `POST /cart/items` with `product`: one more of it, up to the maximum.
    func add(_ request: ShopRequest) throws -> Response {
        let id = try request.integer("product", named: "product")
        guard let product = shelf.current.catalog.product(id: Int64(clamping: id)) else {
            throw HTTPError(.notFound, "That product is not in our catalog.")
        }
        guard product.isActive else {
            throw HTTPError(.notFound, "\(product.name) is no longer available.")
        }
        let change = try carts.add(productID: product.id, for: request.session, at: request.now)
        return committed(change, request, returnTo: request.returnPath(default: "/cart"))
    }

    /// `POST /cart/items/:id/quantity` with `quantity`, clamped into 1...10. With `shown`, the
    /// quantity the page showed, the difference is applied to the quantity stored now, so
    /// presses on pages showing the same quantity (other tabs, other devices) all count.
    func setQuantity(_ request: ShopRequest) throws -> Response {
        let productID = try request.productID()
        let quantity = try request.integer("quantity", named: "quantity")
        let shown = try request.optionalInteger("shown", named: "quantity shown")
        if let product = shelf.current.catalog.product(id: productID), !product.isActive,
           quantity > (shown ?? request.cart.quantity(of: productID)) {
            throw HTTPError(.badRequest, "\(product.name) is no longer available, so you cannot add more of it.")
        }
        do {
            let change: CartChange
            if let shown {
                // Saturating: the store clamps any difference wider than the range anyway.
                let (difference, overflow) = quantity.subtractingReportingOverflow(shown)
                let delta = overflow ? (quantity > shown ? Int.max : Int.min) : difference
                change = try carts.adjustQuantity(by: delta, of: productID, for: request.session, at: request.now)
            } else {
                change = try carts.setQuantity(quantity, of: productID, for: request.session, at: request.now)
            }
            return committed(change, request, returnTo: request.returnPath(default: "/cart"))
        } catch CartError.notInCart {
            throw HTTPError(.notFound, "That item is not in your cart.")
        }
    }

    /// `POST /cart/items/:id/remove`.
    func remove(_ request: ShopRequest) throws -> Response {
        let productID = try request.productID()
        let change = try carts.remove(productID: productID, for: request.session, at: request.now)
        return committed(change, request, returnTo: request.returnPath(default: "/cart"))
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

    private func committed(_ change: CartChange, _ request: ShopRequest, returnTo path: String) -> Response {
        publisher.publish(change, for: request.session)
        return .redirect(to: path)
    }
}
