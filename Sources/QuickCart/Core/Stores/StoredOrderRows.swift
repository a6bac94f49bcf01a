/// Orders as both backends read them (each keeps only its SQL): two statements over the same
/// orders, one of their lines (``lineColumns``, ordered by order, then line position) and one
/// of their histories (``stateColumns``, in the order the moves were made), decoded and put
/// together here.
enum StoredOrderRows {
    /// One line of an order, with the order's id and placing time.
    typealias Line = (id: Int64, placedAt: Int64, line: Order.Line)
    /// One move of an order.
    typealias Move = (orderID: Int64, change: OrderStateChange)

    /// The lines' columns over `orders o`, `order_lines l` and `products p` (NULL for a product
    /// no longer in the catalog).
    static let lineColumns = "o.id, o.placed_at, l.name, l.unit_price_cents, l.quantity, p.slug"
    /// The moves' columns over `order_states s`.
    static let stateColumns = "s.order_id, s.state, s.at, s.carrier, s.tracking_url, s.reason"

    static func line<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> Line {
        (id: try row.int64(0), placedAt: try row.int64(1),
         line: Order.Line(
            name: try row.string(2), unitPrice: Money(cents: try row.int64(3)), quantity: try row.int(4),
            productSlug: try row.optionalString(5)
         ))
    }

    static func move<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> Move {
        (orderID: try row.int64(0), change: OrderStateChange(
            state: OrderState(rawValue: try row.string(1)) ?? .placed, at: try row.int64(2),
            carrier: try row.optionalString(3), trackingURL: try row.optionalString(4), reason: try row.optionalString(5)
        ))
    }

    /// An order's id and delivery, from a row of `o.id, o.delivery_cents` and
    /// ``DeliveryDetailsColumns/orderDeliveryPrefixed``.
    static func delivery<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> (id: Int64, delivery: OrderDelivery) {
        let cents = try row.int64(1)
        return (id: try row.int64(0), delivery: try DeliveryDetailsColumns.delivery(text: { try row.string($0 + 2) }, cents: cents))
    }

    /// The orders the lines make, each with its history and its delivery (by order id, as
    /// ``delivery(from:)`` reads them).
    static func orders(lines: [Line], moves: [Move], deliveries: [(id: Int64, delivery: OrderDelivery)]) -> [Order] {
        let histories = Dictionary(grouping: moves, by: \.orderID).mapValues { $0.map(\.change) }
        let withHistories = Order.attaching(histories, to: Order.grouping(lines))
        return Order.attaching(Dictionary(deliveries, uniquingKeysWith: { first, _ in first }), to: withHistories)
    }
}
