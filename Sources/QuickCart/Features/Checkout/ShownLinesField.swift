import MicroHTTP

/// The lines a page showed, carried in its "Place order" form (`lines`) so the order is placed
/// at exactly those prices: `PRODUCT:QUANTITY:CENTS` per line, comma-separated (`3:1:12800,5:2:2450`),
/// each product once, at most a catalog's highest price.
enum ShownLinesField {
    /// The field's value for `lines`.
    static func encode(_ lines: [OrderPlacement.ShownLine]) -> String {
        lines.map { "\($0.productID):\($0.quantity):\($0.unitPrice.cents)" }.joined(separator: ",")
    }

    /// The lines a form's value names.
    /// - Throws: ``HTTPError`` 400 when it is not a list of lines as ``encode(_:)`` writes them.
    static func decode(_ value: String) throws -> [OrderPlacement.ShownLine] {
        let refused = HTTPError(.badRequest, "The order form is damaged. Go back to your cart and check out again.")
        // At most one line per product of a large catalog: a bound before anything is split.
        guard value.utf8.count <= 16_384 else { throw refused }
        guard !value.isEmpty else { return [] }
        var products = Set<Int64>()
        return try value.split(separator: ",", omittingEmptySubsequences: false).map { line in
            let parts = line.split(separator: ":", omittingEmptySubsequences: false)
            // A page shows each product once, at a price a catalog can hold: bounded so, the
            // lines' subtotal cannot overflow (2,730 lines of 10 at $1,000,000 is far from it).
            guard parts.count == 3, parts.allSatisfy({ part in !part.isEmpty && part.utf8.count <= 18 && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
                  let product = Int64(parts[0]), let quantity = Int(parts[1]), let cents = Int64(parts[2]),
                  Cart.quantityRange.contains(quantity), cents <= CatalogFile.maximumPriceCents,
                  products.insert(product).inserted else { throw refused }
            return OrderPlacement.ShownLine(productID: product, unitPrice: Money(cents: cents), quantity: quantity)
        }
    }
}
