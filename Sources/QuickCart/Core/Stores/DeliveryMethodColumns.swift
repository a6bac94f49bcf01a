/// How both backends store a delivery method's countries: ISO codes separated by spaces, the
/// empty text for every country.
enum DeliveryMethodColumns {
    /// A method's columns in `delivery_methods`, in the order ``method(from:)`` reads them.
    static let list = "code, name, price_cents, countries, free_from_cents, payment, payment_details"

    /// The method a row of ``list`` holds.
    static func method<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> DeliveryMethod {
        DeliveryMethod(
            code: try row.string(0), name: try row.string(1), price: Money(cents: try row.int64(2)),
            countries: countries(try row.string(3)), freeFrom: try row.isNull(4) ? nil : Money(cents: try row.int64(4)),
            payment: DeliveryMethod.Payment(rawValue: try row.string(5)) ?? .bankTransfer, paymentDetails: try row.string(6)
        )
    }

    static func text(of countries: [String]) -> String {
        countries.joined(separator: " ")
    }

    static func countries(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }
}
