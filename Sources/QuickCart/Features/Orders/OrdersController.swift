import MicroHTTP

/// `GET /orders/ID`: one of the shopper's orders. Anyone else's, or one that does not exist,
/// is the same 404: the page never tells a stranger that an order number is in use.
struct OrdersController: Sendable {
    let orders: any OrderStore
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let text = request.http.routeParameters["id"] ?? ""
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(text),
              let order = try orders.order(id: id, for: request.session) else {
            throw HTTPError(.notFound, "There is no such order among yours. Your orders are listed on Profile.")
        }
        return pages.render(
            OrderPageView(order: order), .init(title: "Order #\(order.number)", tab: .profile, cartCount: request.cart.itemCount, returnTo: "/orders/\(order.number)"),
            session: request.session, places: request.places, notice: pages.notice(in: request)
        )
    }
}
