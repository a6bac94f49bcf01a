import Mustache

/// Profile (`profile.mustache`): account, appearance, tab order, settings and past orders.
struct ProfileView: PageView {
    let displayName: String
    let memberSince: String
    let memberSinceISO: String
    let orders: [OrderView]
    let themes: [ThemeChoiceView]
    let tabOrder: [TabOrderItemView]
    let isCustomOrder: Bool
    let notificationsOn: Bool
    /// The order just placed, shown once after checkout.
    let confirmation: OrderConfirmationView?
    /// The shopper's devices, this one marked (empty until the shopper is stored).
    let devices: [DeviceView]
    /// The delivery details saved for the next checkout.
    let savedDelivery: SavedDeliveryView?
    /// A refused display name as typed, which its field holds instead of the saved one.
    var typedName: String? = nil
    /// Why the typed name was refused, shown beside its field.
    var nameProblem: String? = nil

    static let templateName = "profile"
    static let mustacheFields: MustacheFields<ProfileView> = [
        "displayName": .text(\.displayName),
        "nameField": .text { $0.typedName ?? $0.displayName },
        "nameProblem": .text(\.nameProblem),
        "memberSince": .text(\.memberSince),
        "memberSinceISO": .text(\.memberSinceISO),
        "orders": .list(\.orders),
        "hasOrders": .bool { !$0.orders.isEmpty },
        "themes": .list(\.themes),
        "tabOrder": .list(\.tabOrder),
        "isCustomOrder": .bool(\.isCustomOrder),
        "notificationsOn": .bool(\.notificationsOn),
        "nextNotifications": .text { $0.notificationsOn ? "off" : "on" },
        "confirmation": .optional(\.confirmation),
        "devices": .list(\.devices),
        "hasDevices": .bool { !$0.devices.isEmpty },
        "hasOtherDevices": .bool { $0.devices.contains { !$0.isThisDevice } },
        "savedDelivery": .optional(\.savedDelivery),
    ]
}

/// A past order with its lines, its state and a link to its page.
struct OrderView: MustacheView {
    let order: Order
    let placedAt: String
    let placedAtISO: String

    static let mustacheFields: MustacheFields<OrderView> = [
        "number": .text { $0.order.number },
        "placedAt": .text(\.placedAt),
        "placedAtISO": .text(\.placedAtISO),
        "total": .money(\.order.total),
        "lines": .list { $0.order.lines.map(OrderLineView.init) },
        "state": .text(\.order.state.rawValue),
        "stateLabel": .text(\.order.state.label),
        "stateAt": .text { OrderStateChangeView.time($0.order.history.last?.at ?? $0.order.placedAt) },
        "stateAtISO": .text { ProfileController.isoDate($0.order.history.last?.at ?? $0.order.placedAt) },
        "address": .optional { $0.order.delivery.map(DeliveryAddressView.init) },
    ]
}

/// One line of a past order.
struct OrderLineView: MustacheView {
    let line: Order.Line

    static let mustacheFields: MustacheFields<OrderLineView> = [
        "name": .text(\.line.name),
        "quantity": .int(\.line.quantity),
        "lineTotal": .money(\.line.lineTotal),
    ]
}

/// The confirmation after checkout (`/profile?order=N`, where Place order lands): which order,
/// how many items, what total, and where the order is now. It is rendered from the order's
/// current state, so a reload, a retried Place order or a live re-read after the operator's
/// move never tells the shopper to pay for an order that is paid or cancelled.
struct OrderConfirmationView: MustacheView {
    let order: Order

    static let mustacheFields: MustacheFields<OrderConfirmationView> = [
        "number": .text { $0.order.number },
        "title": .text(\.title),
        "state": .text(\.order.state.rawValue),
        "stateLabel": .text(\.order.state.label),
        "isPlaced": .bool { $0.order.state == .placed },
        "stateNews": .text(\.stateNews),
        "stateAt": .text { OrderStateChangeView.time($0.order.history.last?.at ?? $0.order.placedAt) },
        "stateAtISO": .text { ProfileController.isoDate($0.order.history.last?.at ?? $0.order.placedAt) },
        "reason": .text { $0.order.state == .cancelled ? $0.order.history.last?.reason : nil },
        "hasReason": .bool { $0.order.state == .cancelled && $0.order.history.last?.reason != nil },
        "awaitingPayment": .bool(\.order.awaitsPayment),
        "total": .money(\.order.total),
        "itemCountText": .text { Badge.itemCountText($0.order.itemCount) },
        "address": .optional { $0.order.delivery.map(DeliveryAddressView.init) },
    ]

    /// Whether the shopper collects the order in the store.
    private var isCollected: Bool { order.delivery?.isCollected == true }

    /// The heading: "Thank you! Order #1042 is placed." until the order moves, then where it is.
    var title: String {
        switch order.state {
        case .placed: "Thank you! Order #\(order.number) is placed."
        case .paid: "Thank you! Order #\(order.number) is paid."
        case .shipped where isCollected: "Thank you! Order #\(order.number) is ready to collect."
        case .shipped: "Thank you! Order #\(order.number) is on its way."
        case .delivered where isCollected: "Thank you! Order #\(order.number) is collected."
        case .delivered: "Thank you! Order #\(order.number) is delivered."
        case .cancelled: "Order #\(order.number) is cancelled."
        }
    }

    /// What the move means for the shopper, after the state and its time.
    var stateNews: String {
        switch order.state {
        case .placed: ""
        case .paid: "The shop has your payment: there is nothing more to pay."
        // A pick-up's "shipped" is the shop saying it is ready, and "delivered" its collection.
        case .shipped where isCollected: "The order is ready for you to collect in the store."
        case .shipped: "The order is on its way."
        case .delivered where isCollected: "You collected the order."
        case .delivered: "The order has arrived."
        // QuickCart takes no payment: a paid order's refund is the shop's to make.
        case .cancelled where order.history.contains { $0.state == .paid }: "It will not be sent, and the shop refunds what you paid for it."
        case .cancelled: "It will not be sent, and there is nothing to pay for it."
        }
    }
}

/// One choice of the theme picker.
struct ThemeChoiceView: MustacheView {
    let theme: Preferences.Theme
    let selected: Bool

    static let mustacheFields: MustacheFields<ThemeChoiceView> = [
        "value": .text(\.theme.rawValue),
        "label": .text { $0.theme.rawValue.prefix(1).uppercased() + $0.theme.rawValue.dropFirst() },
        "selected": .bool(\.selected),
    ]
}

/// A tab in the tab-order editor, with what its Move buttons may do.
struct TabOrderItemView: MustacheView {
    let tab: TabBar.Tab
    /// Its place among the movable tabs; `nil` for the pinned one.
    let position: Int?
    let movableCount: Int

    static let mustacheFields: MustacheFields<TabOrderItemView> = [
        "id": .text(\.tab.id.rawValue),
        "title": .text(\.tab.title),
        "icon": .text(\.tab.iconMarkup),
        "pinned": .bool { $0.position == nil },
        "canMoveUp": .bool { ($0.position ?? 0) > 0 },
        "canMoveDown": .bool { item in item.position.map { $0 < item.movableCount - 1 } ?? false },
    ]
}
