/// What a shopper asked for when placing an order: the intent it answers, and the lines they
/// were shown, so the order is placed at exactly those prices or not at all.
public struct OrderPlacement: Sendable, Equatable {
    /// One line as the shopper was shown it.
    public struct ShownLine: Sendable, Hashable {
        public var productID: Int64
        public var unitPrice: Money
        public var quantity: Int

        /// `quantity` of `productID` at `unitPrice` each.
        public init(productID: Int64, unitPrice: Money, quantity: Int) {
            self.productID = productID
            self.unitPrice = unitPrice
            self.quantity = quantity
        }
    }

    /// One order per intent, per shopper.
    public var intent: OrderIntent
    /// The lines for sale as shown (any order); `nil` places the cart as it is, at today's prices.
    public var shownLines: [ShownLine]?

    /// A placing for `intent` of the lines `shownLines` (`nil`: the cart as it is).
    public init(intent: OrderIntent, shownLines: [ShownLine]? = nil) {
        self.intent = intent
        self.shownLines = shownLines
    }

    /// The lines for sale of `cart`, as a page showing it shows them.
    public static func lines(of cart: Cart) -> [ShownLine] {
        cart.items.filter(\.isAvailable).map { ShownLine(productID: $0.product.id, unitPrice: $0.product.price, quantity: $0.quantity) }
    }

    /// Whether `current` (the cart's lines for sale now) is what was shown: the same products,
    /// quantities and prices, in any order. Always true without shown lines.
    public func matches(_ current: [ShownLine]) -> Bool {
        guard let shownLines else { return true }
        return Set(shownLines) == Set(current) && shownLines.count == current.count
    }
}
