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

    /// An order as placed.
    public init(id: Int64, placedAt: Int64, lines: [Line]) {
        self.id = id
        self.placedAt = placedAt
        self.lines = lines
    }

    /// The sum of the line totals.
    public var total: Money { lines.reduce(.zero) { $0 + $1.lineTotal } }
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
