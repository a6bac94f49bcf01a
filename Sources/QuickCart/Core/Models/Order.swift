/// A checked-out cart. Its lines keep the names and prices of the moment it was placed.
public struct Order: Hashable, Sendable, Identifiable {
    /// One line of an order.
    public struct Line: Hashable, Sendable {
        public var name: String
        public var unitPrice: Money
        public var quantity: Int

        public init(name: String, unitPrice: Money, quantity: Int) {
            self.name = name
            self.unitPrice = unitPrice
            self.quantity = quantity
        }

        public var lineTotal: Money { unitPrice * quantity }
    }

    public var id: Int64
    /// Seconds since 1970 (UTC).
    public var placedAt: Int64
    public var lines: [Line]

    public init(id: Int64, placedAt: Int64, lines: [Line]) {
        self.id = id
        self.placedAt = placedAt
        self.lines = lines
    }

    public var total: Money { lines.reduce(.zero) { $0 + $1.lineTotal } }
    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
}
