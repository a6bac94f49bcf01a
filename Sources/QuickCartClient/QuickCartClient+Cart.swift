/// The calls of the API that read and change the cart.
///
/// Each change may name the cart's ``Cart/version`` it was made from as `ifMatch`: when another
/// device changed the cart since, the change is refused with
/// ``QuickCartError/staleCart(current:problem:)``, which carries the cart as it is now.
/// Without `ifMatch` the change applies to whatever the cart is.
extension QuickCartClient {
    /// `GET /api/v1/cart`: the shopper's cart.
    public func cart() async throws(QuickCartError) -> Cart {
        try await fetch(request("GET", ["cart"]))
    }

    /// `POST /api/v1/cart/lines`: adds `quantity` of a product (1 by default; to its line, if
    /// the cart has one; a line holds at most 10).
    /// - Throws: ``QuickCartError/invalidValue(field:problem:)`` for a product id that is no
    ///   product, ``QuickCartError/productUnavailable(_:)`` for one no longer for sale.
    public func addLine(productID: String, quantity: Int? = nil, ifMatch version: String? = nil) async throws(QuickCartError) -> Cart {
        try await fetch(request("POST", ["cart", "lines"], headers: Self.precondition(version)), body: NewLine(productId: productID, quantity: quantity))
    }

    /// `PUT /api/v1/cart/lines/{productId}`: sets a line's quantity, 1 to 10.
    /// - Throws: ``QuickCartError/invalidValue(field:problem:)`` for a quantity out of range,
    ///   ``QuickCartError/notFound(_:)`` when the cart has no line of the product.
    public func setQuantity(productID: String, to quantity: Int, ifMatch version: String? = nil) async throws(QuickCartError) -> Cart {
        try await fetch(request("PUT", ["cart", "lines", productID], headers: Self.precondition(version)), body: NewQuantity(quantity: quantity))
    }

    /// `PATCH /api/v1/cart/lines/{productId}`: changes a line's quantity by `difference`
    /// (-9...9 but not 0; `-1` is the stepper's minus), relative to the quantity stored now, and
    /// kept within 1...10 as the web's steppers keep it: only ``removeLine(productID:ifMatch:)``
    /// removes a line.
    /// - Throws: ``QuickCartError/notFound(_:)`` when the cart has no line of the product.
    public func adjustQuantity(productID: String, by difference: Int, ifMatch version: String? = nil) async throws(QuickCartError) -> Cart {
        try await fetch(request("PATCH", ["cart", "lines", productID], headers: Self.precondition(version)), body: QuantityDifference(difference: difference))
    }

    /// `DELETE /api/v1/cart/lines/{productId}`: removes a line (a line not there leaves the
    /// cart as it is).
    public func removeLine(productID: String, ifMatch version: String? = nil) async throws(QuickCartError) -> Cart {
        try await fetch(request("DELETE", ["cart", "lines", productID], headers: Self.precondition(version)))
    }

    /// `If-Match` with the version as the cart's `ETag` quotes it.
    private static func precondition(_ version: String?) -> [String: String] {
        version.map { ["If-Match": "\"\($0)\""] } ?? [:]
    }
}

struct NewLine: Codable, Sendable {
    let productId: String
    let quantity: Int?
}

struct NewQuantity: Codable, Sendable {
    let quantity: Int
}

struct QuantityDifference: Codable, Sendable {
    let difference: Int
}
