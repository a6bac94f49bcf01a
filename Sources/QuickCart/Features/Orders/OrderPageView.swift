import Mustache

/// An order's page (`order.mustache`, `/orders/ID`): its state, lines, total and history,
/// with the tracking link once shipped.
struct OrderPageView: PageView {
    let order: Order

    static let templateName = "order"
    static let mustacheFields: MustacheFields<OrderPageView> = [
        "number": .text { $0.order.number },
        "placedAt": .text { ProfileController.date($0.order.placedAt) },
        "placedAtISO": .text { ProfileController.isoDate($0.order.placedAt) },
        "state": .text(\.order.state.rawValue),
        "stateLabel": .text(\.order.state.label),
        "lines": .list { $0.order.lines.map(OrderLineView.init) },
        "total": .money(\.order.total),
        "itemCountText": .text { Badge.itemCountText($0.order.itemCount) },
        "history": .list { $0.order.history.reversed().map(OrderStateChangeView.init) },
        "shipment": .optional { $0.order.shipment.map(OrderStateChangeView.init) },
        "awaitingPayment": .bool(\.order.awaitsPayment),
        "address": .optional { $0.order.delivery.map(DeliveryAddressView.init) },
        "subtotal": .money(\.order.subtotal),
    ]
}

/// One move of an order's history: the state reached, when, and what was said with it.
struct OrderStateChangeView: MustacheView {
    let change: OrderStateChange

    static let mustacheFields: MustacheFields<OrderStateChangeView> = [
        "label": .text(\.change.state.label),
        "at": .text { OrderStateChangeView.time($0.change.at) },
        "atISO": .text { ProfileController.isoDate($0.change.at) },
        "carrier": .text(\.change.carrier),
        "trackingURL": .text(\.change.trackingURL),
        "reason": .text(\.change.reason),
        "hasCarrier": .bool { $0.change.carrier != nil },
        "hasTracking": .bool { $0.change.trackingURL != nil },
        "hasReason": .bool { $0.change.reason != nil },
    ]

    /// `30 Nov 2026, 14:05 UTC`: the day as Profile writes it, and the time of day in UTC.
    static func time(_ seconds: Int64) -> String {
        let secondsOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let hours = secondsOfDay / 3600, minutes = secondsOfDay % 3600 / 60
        return ProfileController.date(seconds) + ", " + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes) UTC"
    }
}
