/// The shopper's cart, shared by every device of the shopper.
public struct Cart: Hashable, Sendable, Codable {
    /// The cart's version: it changes with every change, and a change may name the version it
    /// was made from (`ifMatch`) to be refused with ``QuickCartError/staleCart(current:problem:)``
    /// when another device changed the cart first.
    public let version: String
    /// The badge's number: the items of lines still for sale.
    public let count: Int
    /// One line per product, in the order they were added.
    public let lines: [CartLine]
    /// The sum of the line totals.
    public let subtotal: Money
}

/// One product in the cart.
public struct CartLine: Hashable, Sendable, Codable, Identifiable {
    /// The product as the catalog has it now.
    public let product: Product
    /// How many, 1 to 10.
    public let quantity: Int
    /// The unit price times the quantity.
    public let lineTotal: Money

    /// The product's id: a cart holds one line per product.
    public var id: String { product.id }
}

/// What joining a shopper by code gave.
public struct JoinResult: Hashable, Sendable, Codable {
    /// The shopper's cart, now this client's too.
    public let cart: Cart
    /// How many items this client's own cart added to it.
    public let added: Int
}
