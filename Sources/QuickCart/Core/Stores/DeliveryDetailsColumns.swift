/// The columns both backends keep delivery details in, in ``DeliveryDetails/Field`` order: the
/// same names in `delivery_details` and (but for `name` and `method`) in `orders`.
enum DeliveryDetailsColumns {
    /// `name, email, …, method`, for a saved row.
    static let list = DeliveryDetails.Field.allCases.map(\.rawValue).joined(separator: ", ")

    /// The saved details of a row of `SELECT version, \(list) FROM delivery_details`.
    static func saved<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> SavedDeliveryDetails {
        var details = DeliveryDetails()
        for (index, field) in DeliveryDetails.Field.allCases.enumerated() { details[field] = try row.string(index + 1) }
        return SavedDeliveryDetails(details: details, version: try row.int64(0))
    }

    /// The order's columns for the fields but `method`, in order (an order's name is `contact_name`).
    static let orderFields = DeliveryDetails.Field.allCases.filter { $0 != .method }
    static let orderList = orderFields.map { $0 == .name ? "contact_name" : $0.rawValue }.joined(separator: ", ")
}

extension DeliveryDetailsColumns {
    /// An order's delivery columns: the details but the method's code, then the method.
    static let orderDeliveryList = orderList + ", delivery_method, delivery_name, payment, payment_details, delivery_cents"
    /// The same, but `delivery_cents`, each column of `orders o`, for reading.
    static let orderDeliveryPrefixed = orderDeliveryList.split(separator: ",").dropLast()
        .map { "o." + $0.trimmingWhitespace(newlines: false) }.joined(separator: ", ")

    /// The text values of ``orderDeliveryList`` but the last (`delivery_cents`), in order.
    static func orderTexts(of delivery: OrderDelivery) -> [String] {
        orderFields.map { delivery.details[$0] }
            + [delivery.details.method, delivery.methodName, delivery.payment.rawValue, delivery.paymentDetails]
    }

    /// The delivery an order's row holds, its text columns read by `text` (0-based within
    /// ``orderDeliveryList``) and `cents` being `delivery_cents`.
    static func delivery(text: (Int) throws -> String, cents: Int64) throws -> OrderDelivery {
        var details = DeliveryDetails()
        for (index, field) in orderFields.enumerated() { details[field] = try text(index) }
        let base = orderFields.count
        details.method = try text(base)
        return OrderDelivery(
            details: details, methodName: try text(base + 1), price: Money(cents: cents),
            payment: DeliveryMethod.Payment(rawValue: try text(base + 2)) ?? .bankTransfer, paymentDetails: try text(base + 3)
        )
    }
}
