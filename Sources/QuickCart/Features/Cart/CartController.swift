import MicroHTTP

extension CartController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let cart = CartController(
            catalogDisplay: shop.catalogDisplay, carts: shop.storage.carts, publisher: shop.publisher,
            page: try shop.pages.page(CartView.self, tab: tab), notices: shop.pages.notices, sessionManager: shop.sessionManager
        )
        routes.get(tab.path, use: cart.show)
        routes.post(tab.path("/items"), use: cart.add)
        routes.post(tab.path("/items/:id/quantity"), use: cart.setQuantity)
        routes.post(tab.path("/items/:id/remove"), use: cart.remove)
        routes.post(tab.path("/items/:id/restore"), use: cart.undoRemove)
    }

    private static let tab = TabBar.TabID.cart
}

/// The Cart tab and every form that changes a cart: add, the quantity steppers, remove (and
/// its undo) and checkout. Each change commits, tells the session's open tabs the new count, then answers
/// 303 back to the row the form came from, with a one-shot notice of what happened.
struct CartController: Sendable {
    let catalogDisplay: CatalogDisplay
    let carts: any CartStore
    let publisher: any BadgePublisher
    let page: ShopPage<CartView>
    /// Signs the notices its answers leave.
    let notices: NoticeCookies
    /// Checks the tag of what a join merged (`?joined=`).
    let sessionManager: SessionManager

    func show(_ request: ShopRequest) throws -> Response {
        page.render(
            CartView(cart: request.cart, cards: catalogDisplay.current.cards), title: "Cart", returnTo: Self.tab.path, for: request,
            notice: DevicesController.joinedNotice(request.http.query["joined"], for: request.session, by: sessionManager)
        )
    }

    /// `POST /cart/items` with `product`: one more of it, up to the maximum. With `change`
    /// (``changeKey(_:)``), once per key.
    func add(_ request: ShopRequest) throws -> Response {
        let key = try Self.changeKey(request)
        let id = try request.integer("product", named: "product")
        guard let product = catalogDisplay.current.catalog.product(id: Int64(clamping: id)) else {
            throw HTTPError(.notFound, "That product is not in our catalog.")
        }
        guard product.isActive else {
            throw HTTPError(.notFound, "\(product.name) is no longer available.")
        }
        let change = try carts.add(productID: product.id, for: request.session, at: request.now, key: key)
        let notice = Self.quantityNotice(for: product.name, id: product.id, before: request.cart, after: change, verb: "Added ")
        return try committed(change, request, returnTo: Self.returnPath(request, at: product.id), notice: Notice(text: notice))
    }

    /// `POST /cart/items/:id/quantity` with `quantity`, clamped into 1...10. With `shown`, the
    /// quantity the page showed, the difference is applied to the quantity stored now, so
    /// presses on pages showing the same quantity (other tabs, other devices) all count. With
    /// `change` (``changeKey(_:)``), once per key.
    func setQuantity(_ request: ShopRequest) throws -> Response {
        let key = try Self.changeKey(request)
        let productID = try request.productID()
        let quantity = try request.integer("quantity", named: "quantity")
        let shown = try request.optionalInteger("shown", named: "quantity shown")
        // One catalog for the whole request (a catalog read takes a lock and copies its parts).
        let product = catalogDisplay.current.catalog.product(id: productID)
        if let product, !product.isActive,
           quantity > (shown ?? request.cart.quantity(of: productID)) {
            throw HTTPError(.badRequest, "\(product.name) is no longer available, so you cannot add more of it.")
        }
        do {
            let change: CartChange
            if let shown {
                // Saturating: the store clamps any difference wider than the range anyway.
                let (difference, overflow) = quantity.subtractingReportingOverflow(shown)
                let delta = overflow ? (quantity > shown ? Int.max : Int.min) : difference
                change = try carts.adjustQuantity(by: delta, of: productID, for: request.session, at: request.now, key: key)
            } else {
                change = try carts.setQuantity(quantity, of: productID, for: request.session, at: request.now, key: key)
            }
            let name = product?.name ?? "The item"
            let notice = Self.quantityNotice(for: name, id: productID, before: request.cart, after: change, verb: "")
            return try committed(change, request, returnTo: Self.returnPath(request, at: productID), notice: Notice(text: notice))
        } catch CartError.notInCart {
            throw HTTPError(.notFound, "That item is not in your cart.")
        }
    }

    /// `POST /cart/items/:id/remove`. A product the cart does not hold (removed already, in
    /// another tab or by a second click) leads back with nothing written and no notice.
    func remove(_ request: ShopRequest) throws -> Response {
        let productID = try request.productID()
        guard request.cart.quantity(of: productID) > 0 else {
            throw NothingChanged(answer: .redirect(to: Self.returnPath(request, at: nil)))
        }
        let change = try carts.remove(productID: productID, for: request.session, at: request.now)
        // The row is gone: the place to come back to is the row after it, or else the one before.
        let before = request.cart.items
        let index = before.firstIndex { $0.product.id == productID }
        let rest = before.filter { $0.product.id != productID }
        let neighbour = index.flatMap { rest.indices.contains($0) ? rest[$0] : rest.last }
        let name = catalogDisplay.current.catalog.product(id: productID)?.name ?? "the item"
        let undo = Notice.Undo(productID: productID, quantity: request.cart.quantity(of: productID), cartVersion: change.version)
        return try committed(
            change, request,
            returnTo: Self.returnPath(request, at: neighbour?.product.id),
            notice: Notice(text: "Removed \(Notice.naming(name))", undo: undo)
        )
    }

    /// `POST /cart/items/:id/restore` with `quantity` and `version`, the Undo of a removal's
    /// notice: puts the line back with its quantity, while the cart is still at the `version`
    /// the removal left it at and does not hold the product. So Undo works once: a second post
    /// (or one after any other change of the cart) leads back with nothing written.
    func undoRemove(_ request: ShopRequest) throws -> Response {
        let productID = try request.productID()
        let quantity = try request.integer("quantity", named: "quantity")
        let version = try request.integer("version", named: "cart version")
        guard let product = catalogDisplay.current.catalog.product(id: productID) else {
            throw HTTPError(.notFound, "That product is not in our catalog.")
        }
        let tooLate = NothingChanged(answer: {
            var answer = Response.redirect(to: Self.returnPath(request, at: nil))
            answer.setCookie(notices.cookie(Notice(text: "That can no longer be undone."), for: request))
            return answer
        }())
        guard Int64(clamping: version) == request.cartVersion, request.cart.quantity(of: productID) == 0 else { throw tooLate }
        do {
            let change = try carts.restore(productID: productID, quantity: quantity, for: request.session, at: request.now)
            let text = "Put back \(Notice.naming(product.name)) — \(Cart.clamp(quantity)) in cart"
            return try committed(change, request, returnTo: Self.returnPath(request, at: productID), notice: Notice(text: text))
        } catch CartError.alreadyInCart {
            throw tooLate
        }
    }

    /// The press a post is (`change`, set by the page script), when it says: a post whose key
    /// its line holds already was made before and changes nothing, so a browser's own resend
    /// of a post whose answer was lost is answered as the first was, and counts once.
    /// - Throws: 400 when the field is there but is no ``ChangeKey``.
    private static func changeKey(_ request: ShopRequest) throws -> ChangeKey? {
        guard let posted = request.http.form["change"] else { return nil }
        guard let key = ChangeKey(posted) else {
            throw HTTPError(.badRequest, "The change key sent with this form is not valid, so nothing was changed. Reload the page and try again.")
        }
        return key
    }

    private func committed(_ change: CartChange, _ request: ShopRequest, returnTo path: String, notice: Notice? = nil) throws -> Response {
        var response = Response.redirect(to: path)
        if let notice { response.setCookie(notices.cookie(notice, for: request)) }
        // Nothing written (the quantity there already, an add at the limit): a change always
        // takes the cart past the version this request read. A visitor never stored stays so,
        // and keeps its cookie, so the forms of its other tabs keep working.
        if change.movedToShopperLiveKey == nil, change.version <= request.cartVersion { throw NothingChanged(answer: response) }
        // A replay changed nothing: its streams heard the count when the change was made.
        if !change.isReplay { publisher.publish(change, for: request.session) }
        return response
    }

    /// What a change of one product's quantity says: its new quantity, or the limit when it
    /// reached it. The new quantity is the one the request's cart showed, moved by the change
    /// in the cart's count (read in the change's own transaction), so no second read is needed;
    /// a change that went to another cart (its browser joined one meanwhile) says that cart's count.
    private static func quantityNotice(for fullName: String, id: Int64, before: Cart, after change: CartChange, verb: String) -> String {
        let name = Notice.naming(fullName)
        if change.movedToShopperLiveKey != nil {
            // The change went to the cart this browser joined meanwhile, not the one it showed.
            return verb + name + " — " + Badge.itemCountText(change.itemCount) + " in the cart"
        }
        let quantity = before.quantity(of: id) + change.itemCount - before.itemCount
        guard quantity >= Cart.quantityRange.upperBound else {
            // Appended into one buffer sized up front: the common notice, on every press.
            var text = ""
            text.reserveCapacity(verb.utf8.count + name.utf8.count + 32)
            text.append(verb)
            text.append(name)
            text.append(" — ")
            text.append(String(quantity))
            text.append(" in cart")
            return text
        }
        let limit = "You can have at most \(Cart.quantityRange.upperBound) of \(name)"
        return change.itemCount != before.itemCount ? "\(limit) — \(Cart.quantityRange.upperBound) in cart" : limit
    }

    /// Back to the page the form was on (``ShopRequest/returnPath(default:at:)``) at the row of
    /// `productID`, so the browser scrolls back to it: a cart row (`#item-3`) on the cart page,
    /// a product card (`#product-3`) on Home and Search; at the page's top for `nil`.
    private static func returnPath(_ request: ShopRequest, at productID: Int64?) -> String {
        let page = request.returnPath(default: tab.path, at: "")
        guard let productID else { return page }
        let isCart = page == tab.path || page.hasPrefix(tab.path("?"))
        return page + (isCart ? "#item-" : "#product-") + String(productID)
    }
}
