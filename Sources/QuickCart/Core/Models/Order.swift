/// A checked-out cart. Its lines keep the names and prices of the moment it was placed.
public struct Order: Hashable, Sendable, Identifiable {
    /// One line of an order.
    public struct Line: Hashable, Sendable {
        /// The product's name when the order was placed.
        public var name: String
        /// The product's price when the order was placed.
        public var unitPrice: Money
        /// How many were bought.
        public var quantity: Int
        /// The slug of the product it was, when that product is still in the catalog.
        public var productSlug: String?

        /// A line of `quantity` of the product named `name`, at `unitPrice` each.
        public init(name: String, unitPrice: Money, quantity: Int, productSlug: String? = nil) {
            self.name = name
            self.unitPrice = unitPrice
            self.quantity = quantity
            self.productSlug = productSlug
        }

        /// Unit price times quantity.
        public var lineTotal: Money { unitPrice * quantity }
    }

    /// The shop-wide order id, increasing with every order placed.
    public var id: Int64
    /// Seconds since 1970 (UTC).
    public var placedAt: Int64
    /// The lines, in the order their products were added to the cart.
    public var lines: [Line]
    /// Every move of the order's life, oldest first; the first is its placing.
    public var history: [OrderStateChange]
    /// Contact, address, delivery method and payment; `nil` for orders placed before checkout asked.
    public var delivery: OrderDelivery?

    /// An order with its lines and history (placed at `placedAt` when no history is given).
    public init(id: Int64, placedAt: Int64, lines: [Line], history: [OrderStateChange]? = nil, delivery: OrderDelivery? = nil) {
        self.id = id
        self.placedAt = placedAt
        self.lines = lines
        self.history = history ?? [OrderStateChange(state: .placed, at: placedAt)]
        self.delivery = delivery
    }

    /// Where the order is now: its last move's state.
    public var state: OrderState { history.last?.state ?? .placed }
    /// The last shipment move's tracking link and carrier, once shipped.
    public var shipment: OrderStateChange? { history.last { $0.state == .shipped } }
    /// Whether the shopper still has to pay: until the order is marked paid, delivered (which
    /// means paid too) or cancelled. A pay-on-delivery order is shipped unpaid, and its
    /// carrier collects the money at the door.
    public var awaitsPayment: Bool {
        switch state {
        case .placed: true
        case .shipped: !history.contains { $0.state == .paid }
        case .paid, .delivered, .cancelled: false
        }
    }

    /// The same orders, each with the history `histories` holds for its id (those it holds
    /// none for keep their placing alone).
    public static func attaching(_ histories: [Int64: [OrderStateChange]], to orders: [Order]) -> [Order] {
        orders.map { order in
            var order = order
            if let history = histories[order.id], !history.isEmpty { order.history = history }
            return order
        }
    }

    /// The same orders, each with the delivery `deliveries` holds for its id.
    public static func attaching(_ deliveries: [Int64: OrderDelivery], to orders: [Order]) -> [Order] {
        orders.map { order in
            var order = order
            order.delivery = deliveries[order.id]
            return order
        }
    }

    /// The sum of the line totals.
    public var subtotal: Money { lines.reduce(.zero) { $0 + $1.lineTotal } }
    /// What the shopper pays: the lines and the delivery.
    public var total: Money { subtotal + (delivery?.price ?? .zero) }
    /// How many items were bought: the sum of quantities.
    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }

    /// The number a shopper and the shop read to each other ("order 1042"): the order's
    /// shop-wide id in plain digits, the same on the shopper's confirmation, on Profile and
    /// in `quickcart orders export`. Pages show it after a `#`.
    public var number: String { String(id) }

    /// The orders that rows of order lines make up, in the rows' order: consecutive rows with
    /// one order id are one order's lines. Both stores read an order's lines this way.
    ///
    /// ```swift
    /// Order.grouping([(id: 2, placedAt: t, line: a), (id: 2, placedAt: t, line: b), (id: 1, placedAt: s, line: c)])
    /// // [Order(id: 2, lines: [a, b]), Order(id: 1, lines: [c])]
    /// ```
    ///
    /// - Parameter rows: Order lines with their order's id and time, each order's together.
    /// - Returns: One order per run of rows with the same id.
    public static func grouping(_ rows: [(id: Int64, placedAt: Int64, line: Line)]) -> [Order] {
        var orders: [Order] = []
        for row in rows {
            if orders.last?.id == row.id {
                orders[orders.count - 1].lines.append(row.line)
            } else {
                orders.append(Order(id: row.id, placedAt: row.placedAt, lines: [row.line]))
            }
        }
        return orders
    }
}
