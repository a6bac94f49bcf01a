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
    /// Where and how the order goes, at the delivery price shown; `nil` for an order without
    /// delivery details. The store places it only while its method is configured at that price.
    public var delivery: OrderDelivery?

    /// A placing for `intent` of the lines `shownLines` (`nil`: the cart as it is), delivered as
    /// `delivery` says.
    public init(intent: OrderIntent, shownLines: [ShownLine]? = nil, delivery: OrderDelivery? = nil) {
        self.intent = intent
        self.shownLines = shownLines
        self.delivery = delivery
    }

    /// Whether `method` (as configured now, `nil` when gone) still delivers at the price shown
    /// for an order of `subtotal`. Always true without a delivery.
    public func deliveryMatches(_ method: DeliveryMethod?, subtotal: Money) -> Bool {
        guard let delivery else { return true }
        guard let method, method.code == delivery.details.method else { return false }
        return method.price(forSubtotal: subtotal) == delivery.price && method.suits(country: delivery.details.country)
    }

    /// The lines for sale of `cart`, as a page showing it shows them.
    public static func lines(of cart: Cart) -> [ShownLine] {
        cart.items.filter(\.isAvailable).map { ShownLine(productID: $0.product.id, unitPrice: $0.product.price, quantity: $0.quantity) }
    }

    /// What `lines` cost together.
    public static func subtotal(of lines: [ShownLine]) -> Money {
        lines.reduce(.zero) { $0 + $1.unitPrice * $1.quantity }
    }

    /// Refuses `lines` (the cart's lines for sale now) that cannot become this order: none, as
    /// ``CartError/nothingForSale`` when `cartHasLines` finds lines no longer for sale, else as
    /// ``CartError/emptyCart``, or, when lines were shown, as ``CartError/changedSinceShown``
    /// (a cart emptied since it was shown: another device placed it, or took its lines out);
    /// other than those shown, as ``CartError/changedSinceShown``.
    func check(_ lines: [ShownLine], cartHasLines: () throws -> Bool) throws {
        guard !lines.isEmpty else {
            if try cartHasLines() { throw CartError.nothingForSale }
            throw shownLines?.isEmpty == false ? CartError.changedSinceShown : CartError.emptyCart
        }
        guard matches(lines) else { throw CartError.changedSinceShown }
    }

    /// Whether `current` (the cart's lines for sale now) is what was shown: the same products,
    /// quantities and prices, in any order. Always true without shown lines.
    public func matches(_ current: [ShownLine]) -> Bool {
        guard let shownLines else { return true }
        return Self.same(shownLines, current)
    }

    /// Whether `lines` and `others` are the same products, quantities and prices, in any order.
    public static func same(_ lines: [ShownLine], _ others: [ShownLine]) -> Bool {
        Set(lines) == Set(others) && lines.count == others.count
    }
}
