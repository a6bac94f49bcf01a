import MicroHTTP

extension CheckoutController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let checkout = CheckoutController(
            catalogDisplay: shop.catalogDisplay, carts: shop.storage.carts, orders: shop.storage.orders, sessions: shop.storage.sessions,
            methods: shop.storage.deliveryMethods, details: shop.storage.deliveryDetails,
            publisher: shop.publisher, notices: shop.pages.notices, catalogUpdates: CatalogUpdates(storage: shop.storage, hub: shop.hub),
            deliveryPage: try shop.pages.page(CheckoutDeliveryView.self, tab: .cart),
            reviewPage: try shop.pages.page(CheckoutReviewView.self, tab: .cart)
        )
        routes.get(path, use: checkout.showDelivery)
        routes.post(path + "/delivery", use: checkout.saveDelivery)
        routes.get(path + "/review", use: checkout.showReview)
        // Its answer sets the session cookie again, so that Back does not show Review with the cart just ordered.
        routes.post(path + "/place", reissuesCookie: true, use: checkout.place)
    }

    /// Checkout's address: the Cart tab's Checkout button leads here.
    static let path = "/checkout"
}

/// Checkout in two steps. **Delivery** (`GET /checkout`, posted to `/checkout/delivery`): the
/// details, checked field by field on the server (a refusal is the page again, 400, with what
/// was typed and a message per field), saved on the shopper for next time. **Review**
/// (`GET /checkout/review`): lines, delivery, total and how to pay, and "Place order"
/// (`POST /checkout/place`), which places exactly what Review showed, once per intent.
struct CheckoutController: Sendable {
    let catalogDisplay: CatalogDisplay
    let carts: any CartStore
    let orders: any OrderStore
    let sessions: any SessionStore
    let methods: any DeliveryMethodStore
    let details: any DeliveryDetailsStore
    let publisher: any BadgePublisher
    let notices: NoticeCookies
    let catalogUpdates: CatalogUpdates
    let deliveryPage: ShopPage<CheckoutDeliveryView>
    let reviewPage: ShopPage<CheckoutReviewView>

    /// `GET /checkout`: the form, filled with the saved details (checked, with `?check`, when
    /// Review found them unusable now).
    func showDelivery(_ request: ShopRequest) throws -> Response {
        guard request.cart.canCheckout else { return deliveryPage(form: nil, offersSaved: false, request) }
        let saved = try details.deliveryDetails(for: request.session)
        let methods = try methods.deliveryMethods()
        var filled = saved?.details ?? DeliveryDetails()
        if filled.method.isEmpty, methods.count == 1 { filled.method = methods[0].code }
        let problems = request.http.query["check"] != nil ? filled.problems(methods: methods) : []
        let form = DeliveryFormView(
            action: Self.path + "/delivery", submitLabel: "Continue to review", details: filled, methods: methods,
            subtotal: request.cart.subtotal, problems: problems
        )
        return deliveryPage(form: form, offersSaved: saved != nil, request)
    }

    /// `POST /checkout/delivery`: saved and on to Review, or the form again (400) saying what to change.
    func saveDelivery(_ request: ShopRequest) throws -> Response {
        let typed = Self.details(from: request.http.form)
        let methods = try methods.deliveryMethods()
        let problems = typed.problems(methods: methods)
        guard problems.isEmpty else {
            let form = DeliveryFormView(
                action: Self.path + "/delivery", submitLabel: "Continue to review", details: typed, methods: methods,
                subtotal: request.cart.subtotal, problems: problems
            )
            throw NothingChanged(answer: deliveryPage(form: form, offersSaved: false, request, status: .badRequest))
        }
        _ = try details.saveDeliveryDetails(typed.keepingUsableAddress(for: methods), for: request.session, at: request.nowMilliseconds)
        return .redirect(to: Self.path + "/review")
    }

    /// `GET /checkout/review`: what Place order would place.
    func showReview(_ request: ShopRequest) throws -> Response {
        guard request.cart.canCheckout else { return .redirect(to: TabBar.TabID.cart.path) }
        guard let saved = try details.deliveryDetails(for: request.session) else { return .redirect(to: Self.path) }
        let methods = try methods.deliveryMethods()
        guard saved.details.problems(methods: methods).isEmpty, let method = methods.first(where: { $0.code == saved.details.method }) else {
            return .redirect(to: Self.path + "?check")
        }
        let review = CheckoutReviewView(
            cart: request.cart, cartVersion: request.cartVersion,
            delivery: OrderDelivery(details: saved.details, method: method, subtotal: request.cart.subtotal),
            detailsVersion: saved.version, changed: request.http.query["changed"] != nil
        )
        return reviewPage.render(review, title: "Review your order", returnTo: Self.path + "/review", for: request)
    }

    /// `POST /checkout/place` with what Review showed: the order, once per cart version shown
    /// (a second press, another tab or device lands on the order the first placed); or, when
    /// anything changed since, nothing, and Review again saying what changed.
    func place(_ request: ShopRequest) throws -> Response {
        let version = try request.integer("version", named: "cart version")
        let shown = try ShownLinesField.decode(request.http.form["lines"] ?? "")
        let shownDelivery = try request.integer("delivery", named: "delivery price")
        let shownDetails = try request.integer("details", named: "delivery details version")
        let intent = OrderIntent.review(cartVersion: Int64(clamping: version))
        // An order placed for this Review already (another tab, a double click, a retry) is the
        // answer whatever changed since: its details, a method or a price changing afterwards
        // must not hide it behind "review again".
        if let order = try orders.order(intent: intent, for: request.session) {
            return .redirect(to: Self.confirmation(of: order.id))
        }
        // Emptied since Review (placed from another tab at another version, or taken out):
        // that is what to say, whatever else changed with it.
        if !shown.isEmpty, request.cart.items.isEmpty { throw emptied(request) }
        guard let saved = try details.deliveryDetails(for: request.session) else { throw reviewAgain(request, to: Self.path, "Enter your delivery details first.") }
        guard Int64(clamping: shownDetails) == saved.version else {
            throw reviewAgain(request, "Your delivery details changed since you saw them. Check them below.")
        }
        let methods = try methods.deliveryMethods()
        guard let method = methods.first(where: { $0.code == saved.details.method && $0.suits(country: saved.details.country) }) else {
            throw reviewAgain(request, to: Self.path + "?check", "That delivery method is no longer offered for your address. Choose another.")
        }
        // A delivery import may have changed how the method is paid since Review, and with it
        // whether the order is collected or sent: what Review said is then not what would be
        // placed. A form that does not say (a Review page from an earlier release) is shown again.
        guard let shownPayment = request.http.form["payment"] else {
            throw reviewAgain(request, "Check your order below, then place it.")
        }
        guard shownPayment == method.payment.rawValue else {
            throw reviewAgain(request, "How your order is delivered or paid changed since you saw it. Check it below.")
        }
        guard saved.details.problems(methods: methods).isEmpty else {
            throw reviewAgain(request, to: Self.path + "?check", "Your delivery details need a change for that delivery method.")
        }
        let delivery = OrderDelivery(details: saved.details, method: method, subtotal: OrderPlacement.subtotal(of: shown))
        do {
            guard delivery.price.cents == Int64(clamping: shownDelivery) else { throw CartError.changedSinceShown }
            let placed = try carts.placeOrder(OrderPlacement(intent: intent, shownLines: shown, delivery: delivery), for: request.session, at: request.now)
            if let change = placed.change { publisher.publish(change, for: request.session) }
            return .redirect(to: Self.confirmation(of: placed.orderID))
        } catch CartError.changedSinceShown {
            // The change may be an import this instance has not taken yet (it checks every two
            // seconds): take it now, so that the notice names it and Review shows what Place
            // order checks against.
            _ = try? catalogUpdates.takeNewCatalog()
            // The cart as the placing found it: another tab may have changed it after this request read it.
            var current = request.cart
            if case .active(let stored)? = try? sessions.session(clientID: request.session.clientID) { current = stored.cart }
            guard !current.items.isEmpty else { throw emptied(request) }
            let catalog = catalogDisplay.current.catalog
            let cart = current.described(by: catalog)
            var changes = ReviewChanges(shown: shown, now: cart, catalog: catalog)
            let now = OrderDelivery(details: saved.details, method: method, subtotal: cart.subtotal).price
            if now.cents != Int64(clamping: shownDelivery) {
                changes.deliveryChanged(now: now, was: Money(cents: Int64(clamping: shownDelivery)))
            }
            throw reviewAgain(request, changes.notice)
        } catch CartError.emptyCart {
            throw HTTPError(.badRequest, "Your cart is empty, so there is nothing to order.")
        } catch CartError.nothingForSale {
            throw HTTPError(.badRequest, "Nothing in your cart is for sale any more; remove those items to continue.")
        }
    }

    /// Nothing placed from a Review of a cart emptied since: the cart, saying so.
    private func emptied(_ request: ShopRequest) -> NothingChanged {
        reviewAgain(
            request, to: TabBar.TabID.cart.path,
            "Your cart was emptied since that Review page was shown, so nothing was ordered from it. Your orders are on Profile."
        )
    }

    /// Where Place order leads once order `id` is placed: its confirmation on Profile.
    static func confirmation(of id: Int64) -> String {
        TabBar.TabID.profile.path + "?order=\(id)#order-confirmation"
    }

    /// Nothing placed: back to Review (or `path`) with `text` said there, and nothing stored.
    private func reviewAgain(_ request: ShopRequest, to path: String = Self.path + "/review?changed", _ text: String) -> NothingChanged {
        var answer = Response.redirect(to: path)
        answer.setCookie(notices.cookie(Notice(text: text), for: request))
        return NothingChanged(answer: answer)
    }

    private func deliveryPage(form: DeliveryFormView?, offersSaved: Bool, _ request: ShopRequest, status: HTTPStatus = .ok) -> Response {
        deliveryPage.render(
            CheckoutDeliveryView(form: form, offersSaved: offersSaved), title: "Delivery", returnTo: Self.path, for: request, status: status
        )
    }

    /// The details a delivery form posted, as ``DeliveryDetails/init(typed:)`` tidies them.
    static func details(from form: Parameters) -> DeliveryDetails {
        DeliveryDetails { form[$0.rawValue] ?? "" }
    }
}
