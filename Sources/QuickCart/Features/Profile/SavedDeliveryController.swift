import MicroHTTP

extension SavedDeliveryController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let saved = SavedDeliveryController(
            methods: shop.storage.deliveryMethods, details: shop.storage.deliveryDetails, notices: shop.pages.notices,
            page: try shop.pages.page(DeliveryDetailsPageView.self, tab: tab)
        )
        routes.get(tab.path("/delivery"), use: saved.show)
        routes.post(tab.path("/delivery"), use: saved.save)
        routes.post(tab.path("/delivery/delete"), storesSession: false, use: saved.delete)
    }

    private static let tab = TabBar.TabID.profile
}

/// The delivery details saved on the shopper, as Profile edits them: the checkout's form on a
/// page of its own (`/profile/delivery`), and Delete.
struct SavedDeliveryController: Sendable {
    let methods: any DeliveryMethodStore
    let details: any DeliveryDetailsStore
    let notices: NoticeCookies
    let page: ShopPage<DeliveryDetailsPageView>

    /// `GET /profile/delivery`: the saved details (or none yet) in the form.
    func show(_ request: ShopRequest) throws -> Response {
        let saved = try details.deliveryDetails(for: request.session)?.details ?? DeliveryDetails()
        return render(saved, problems: [], methods: try methods.deliveryMethods(), request)
    }

    /// `POST /profile/delivery`: saved, back on Profile saying so; or the form again (400).
    func save(_ request: ShopRequest) throws -> Response {
        let typed = CheckoutController.details(from: request.http.form)
        let offered = try methods.deliveryMethods()
        let problems = typed.problems(methods: offered)
        guard problems.isEmpty else { throw NothingChanged(answer: render(typed, problems: problems, methods: offered, request, status: .badRequest)) }
        _ = try details.saveDeliveryDetails(typed.keepingUsableAddress(for: offered), for: request.session, at: request.nowMilliseconds)
        var answer = Response.redirect(to: Self.tab.path + "#delivery-title")
        answer.setCookie(notices.cookie(Notice(text: "Delivery details saved"), for: request))
        return answer
    }

    /// `POST /profile/delivery/delete`: the details are gone; checkout asks for them again.
    func delete(_ request: ShopRequest) throws -> Response {
        let deleted = try details.deleteDeliveryDetails(for: request.session)
        var answer = Response.redirect(to: Self.tab.path + "#delivery-title")
        if deleted { answer.setCookie(notices.cookie(Notice(text: "Delivery details deleted"), for: request)) }
        return answer
    }

    private func render(
        _ details: DeliveryDetails, problems: [(field: DeliveryDetails.Field, message: String)], methods: [DeliveryMethod], _ request: ShopRequest,
        status: HTTPStatus = .ok
    ) -> Response {
        let form = DeliveryFormView(
            action: Self.tab.path("/delivery"), submitLabel: "Save delivery details", details: details,
            methods: methods, subtotal: nil, problems: problems
        )
        return page.render(DeliveryDetailsPageView(form: form), title: "Delivery details", returnTo: Self.tab.path("/delivery"), for: request, status: status)
    }
}
