import Testing

extension Browser {
    /// Checks the cart out as a shopper would, from the cart page: the answer to "Checkout"
    /// (a 303 to the confirmation when the order was placed).
    func placeOrder(sourceLocation: SourceLocation = #_sourceLocation) throws -> Page {
        try click("Checkout", on: try get("/cart"), sourceLocation: sourceLocation)
    }
}
