import MicroHTTP

extension OrdersController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let orders = OrdersController(orders: shop.storage.orders, page: try shop.pages.page(OrderPageView.self, tab: .profile))
        routes.get("/orders/:id", use: orders.show)
    }
}

/// `GET /orders/ID`: one of the shopper's orders. Anyone else's, or one that does not exist,
/// is the same 404: the page never tells a stranger that an order number is in use.
struct OrdersController: Sendable {
    let orders: any OrderStore
    let page: ShopPage<OrderPageView>

    func show(_ request: ShopRequest) throws -> Response {
        guard let id = request.http.routeParameters["id"].flatMap(RecordID.parse), let order = try orders.order(id: id, for: request.session) else {
            throw HTTPError(.notFound, "There is no such order among yours. Your orders are listed on Profile.")
        }
        return page.render(OrderPageView(order: order), title: "Order #\(order.number)", returnTo: "/orders/\(order.number)", for: request)
    }
}
