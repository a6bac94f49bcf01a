/// Checkout's `lines`: the lines the shopper confirmed, as the app showed them. With them the
/// order is placed only at exactly those products, quantities and prices, as the web's Review
/// places only what it showed; a cart or a price that moved since is `412 stale-cart`.
///
/// ```json
/// "lines": [{"productId": "3", "quantity": 1, "unitPrice": {"amount": "349.00", "currency": "USD"}}]
/// ```
enum APICheckoutLines {
    /// The member's type, for ``APIDelivery/checkoutFields``. Made for each checkout, not kept:
    /// LeakSanitizer cannot follow a kept value of nested indirect cases (their pointers carry
    /// the case in spare bits) and would report it leaked.
    static var field: APIBody.FieldType {
        .array(.object([
            "productId": .string, "quantity": .integer,
            "unitPrice": .object(["amount": .string, "currency": .string]),
        ]))
    }

    /// The body's `lines`, or `nil` without them.
    /// - Throws: ``APIProblem/Kind/invalidValue`` naming the first value at fault
    ///   (`lines[1].unitPrice.amount`), or `lines` itself when it is empty or names a product twice.
    static func lines(in body: APIBody) throws(APIProblem) -> [OrderPlacement.ShownLine]? {
        guard let objects = body.objects("lines") else { return nil }
        guard !objects.isEmpty else {
            throw APIProblem(.invalidValue, "“lines” names no line: leave it out to place the cart as it is.", field: "lines")
        }
        var lines: [OrderPlacement.ShownLine] = []
        for (index, line) in objects.enumerated() {
            let name = "lines[\(index)]"
            for member in ["productId", "quantity", "unitPrice"] where !line.has(member) {
                throw APIProblem(.invalidBody, "The field “\(name).\(member)” is required.", field: name + "." + member)
            }
            guard let id = line.string("productId").flatMap(RecordID.parse) else {
                throw APIProblem(.invalidValue, "“\(name).productId” is not a product id.", field: name + ".productId")
            }
            let quantity = line.integer("quantity") ?? 0
            guard Cart.quantityRange.contains(quantity) else {
                throw APIProblem(
                    .invalidValue, "“\(name).quantity” must be from \(Cart.quantityRange.lowerBound) to \(Cart.quantityRange.upperBound).",
                    field: name + ".quantity"
                )
            }
            guard let price = line.object("unitPrice") else {
                throw APIProblem(.invalidBody, "“\(name).unitPrice” must be an object.", field: name + ".unitPrice")
            }
            for member in ["amount", "currency"] where !price.has(member) {
                throw APIProblem(.invalidBody, "The field “\(name).unitPrice.\(member)” is required.", field: name + ".unitPrice." + member)
            }
            guard price.string("currency") == APIModels.currency else {
                throw APIProblem(.invalidValue, "“\(name).unitPrice.currency” must be \(APIModels.currency).", field: name + ".unitPrice.currency")
            }
            guard let unitPrice = price.string("amount").flatMap(APIModels.money(amount:)) else {
                throw APIProblem(
                    .invalidValue, "“\(name).unitPrice.amount” must be an amount with two decimals, such as 24.50.", field: name + ".unitPrice.amount"
                )
            }
            guard !lines.contains(where: { $0.productID == id }) else {
                throw APIProblem(.invalidValue, "“lines” names product \(id) twice.", field: "lines")
            }
            lines.append(OrderPlacement.ShownLine(productID: id, unitPrice: unitPrice, quantity: quantity))
        }
        return lines
    }

    /// Whether `lines` are `order`'s, by product (through `catalog`), quantity and price; true
    /// when an order's product has left the catalog, so it can no longer be told.
    static func are(_ lines: [OrderPlacement.ShownLine], of order: Order, catalog: Catalog) -> Bool {
        var placed: [OrderPlacement.ShownLine] = []
        for line in order.lines {
            guard let id = line.productSlug.flatMap(catalog.product(slug:))?.id else { return true }
            placed.append(OrderPlacement.ShownLine(productID: id, unitPrice: line.unitPrice, quantity: line.quantity))
        }
        return OrderPlacement.same(lines, placed)
    }
}
