/// A session's cart: products with quantities, in the order they were added.
public struct Cart: Hashable, Sendable {
    /// One product in the cart.
    public struct Item: Hashable, Sendable {
        /// The product, as the current catalog describes it (name and price of today).
        public var product: Product
        /// Always within ``Cart/quantityRange``.
        public var quantity: Int

        /// A line of `quantity` of `product`.
        public init(product: Product, quantity: Int) {
            self.product = product
            self.quantity = quantity
        }

        /// Unit price times quantity.
        public var lineTotal: Money { product.price * quantity }

        /// Whether its product is still for sale. A line that is not shows as no longer
        /// available, cannot be increased, and counts towards neither the badge nor the
        /// subtotal; checkout leaves it out.
        public var isAvailable: Bool { product.isActive }
    }

    /// The quantities a line may have; posted values outside are clamped into it.
    public static let quantityRange = 1...10

    public var items: [Item]

    public init(items: [Item] = []) {
        self.items = items
    }

    /// The badge's number: the sum of quantities of the lines still for sale.
    public var itemCount: Int { items.reduce(0) { $1.isAvailable ? $0 + $1.quantity : $0 } }

    /// The exact sum of line totals of the lines still for sale.
    public var subtotal: Money { items.reduce(.zero) { $1.isAvailable ? $0 + $1.lineTotal : $0 } }

    public var isEmpty: Bool { items.isEmpty }

    /// Whether checkout would place an order: some line is still for sale.
    public var canCheckout: Bool { items.contains(where: \.isAvailable) }

    /// The same lines with their products as `catalog` describes them now; lines of products it
    /// no longer has are left out, as reading a cart leaves them out.
    public func described(by catalog: Catalog) -> Cart {
        Cart(items: items.compactMap { item in catalog.product(id: item.product.id).map { Item(product: $0, quantity: item.quantity) } })
    }

    /// The quantity of `productID` in the cart, 0 when absent.
    public func quantity(of productID: Int64) -> Int {
        items.first { $0.product.id == productID }?.quantity ?? 0
    }

    /// Clamps a requested quantity into ``quantityRange``.
    public static func clamp(_ quantity: Int) -> Int {
        min(max(quantity, quantityRange.lowerBound), quantityRange.upperBound)
    }

    /// A change of quantity bounded to the range's width: any larger one clamps the same way,
    /// and bounding it first keeps the stores' SQL arithmetic far from overflow.
    public static func boundedDelta(_ delta: Int) -> Int {
        let width = quantityRange.upperBound - quantityRange.lowerBound
        return min(max(delta, -width), width)
    }
}

extension Cart {
    /// The demo cart new sessions start with (unless the shop starts them empty): Trail
    /// Running Shoes ×1 and Insulated Water Bottle ×2, as far as `catalog` has them.
    public static func demo(from catalog: Catalog) -> Cart {
        let lines: [(String, Int)] = [("trail-running-shoes", 1), ("insulated-water-bottle", 2)]
        return Cart(items: lines.compactMap { slug, quantity in
            catalog.product(slug: slug).flatMap { $0.isActive ? Cart.Item(product: $0, quantity: quantity) : nil }
        })
    }
}
