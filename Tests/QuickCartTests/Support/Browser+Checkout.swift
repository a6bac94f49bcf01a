import Testing

extension Browser {
    /// Delivery details that pass every check: Ada in Portland, standard shipping.
    static let deliveryFields: [(String, String)] = [
        ("name", "Ada Lovelace"), ("email", "ada@example.com"), ("phone", "+1 503 555 0100"), ("address_line1", "12 Analytical Row"),
        ("address_line2", ""), ("city", "Portland"), ("region", "OR"), ("postal_code", "97201"), ("country", "US"), ("method", "standard"),
    ]

    /// Posts the Delivery step (`fields` changed from ``deliveryFields`` by `changes`): a 303 to
    /// Review when they pass, the form again (400) when not.
    func postDelivery(_ changes: [String: String] = [:]) throws -> Page {
        try post("/checkout/delivery", form: Self.deliveryFields.map { ($0.0, changes[$0.0] ?? $0.1) })
    }

    /// Goes to Review as a shopper would: Delivery with ``deliveryFields`` (a 303), then the
    /// Review page (a 200), with the Place order form for what it shows.
    func review(sourceLocation: SourceLocation = #_sourceLocation) throws -> Page {
        let delivery = try postDelivery()
        try #require(delivery.status == 303, "the Delivery step: \(delivery.summary)", sourceLocation: sourceLocation)
        let review = try get("/checkout/review")
        try #require(review.status == 200, "Review: \(review.summary)", sourceLocation: sourceLocation)
        return review
    }

    /// Checks the cart out as a shopper would: Delivery with ``deliveryFields``, then Review's
    /// "Place order": its answer (a 303 to the confirmation when the order was placed).
    func placeOrder(sourceLocation: SourceLocation = #_sourceLocation) throws -> Page {
        try click("Place order", on: try review(sourceLocation: sourceLocation), sourceLocation: sourceLocation)
    }
}
