/// The operator's delivery file (`quickcart delivery import`): CSV with a header row, or JSON
/// (an array of objects), one delivery method per row, read and checked like the catalog file.
///
/// | field | required | what |
/// | --- | --- | --- |
/// | `code` | yes | the method's key: lower-case letters, digits and single hyphens, up to 40 |
/// | `name` | yes | what shoppers read, up to 60 characters |
/// | `price` | yes | dollars with up to two decimals, as the catalog's prices |
/// | `countries` | yes | ISO 3166-1 codes separated by spaces (`US CA`), or `*` for every country |
/// | `free_from` | no | a subtotal from which delivery is free |
/// | `payment` | yes | `bank-transfer`, `on-delivery` or `in-store`: how an order delivered so is paid |
/// | `payment_details` | no | the shop's words on paying (bank account, opening hours), up to 300 characters |
enum DeliveryFile {
    static let fields = ["code", "name", "price", "countries", "free_from", "payment", "payment_details"]
    static let schema = TableFile.Schema(
        kind: "delivery", jsonName: "delivery file", itemNoun: "delivery method", fields: fields,
        requiredFields: ["code", "name", "price", "countries", "payment"], signature: ["code", "price"],
        numberFields: ["price", "free_from"], flagFields: [], maximumItems: 100,
        maximumItemsAdvice: "checkout offers every method, one choice each; keep the ones shoppers need"
    )
    static let maximumLengths = ["code": 40, "name": 60, "countries": 1_000, "payment_details": 300]

    /// Reads and checks a whole delivery file.
    /// - Returns: The methods in file order, or every problem found (never both).
    static func read(_ bytes: [UInt8]) -> Result<[DeliveryMethod], TableFile.Failure> {
        TableFile.rows(bytes, schema: schema, keyField: "code", key: \.code) { record, problems in check(record, problems: &problems) }
    }

    private static func check(_ record: TableFile.Record, problems: inout [TableFile.Problem]) -> DeliveryMethod? {
        let before = problems.count
        let line = record.line
        func text(_ field: String, required: Bool) -> String {
            TableFile.text(
                field, of: record.values, line: line, required: required && !record.absent.contains(field), maximum: maximumLengths[field],
                problems: &problems
            )
        }
        func problem(_ field: String, _ message: String) {
            problems.append(TableFile.Problem(line: record.values[field]?.line ?? line, field: field, message: message))
        }
        let code = text("code", required: true)
        if !code.isEmpty, !CatalogFile.isURLSafe(code) {
            problem("code", "“\(code)” is not a code: use lower-case letters a–z, digits and single hyphens between them")
        }
        let name = text("name", required: true)
        func money(_ field: String, required: Bool) -> Money? {
            let value = text(field, required: required)
            guard !value.isEmpty else { return nil }
            guard let price = CatalogFile.parsePrice(value) else {
                problem(field, "“\(value)” is not an amount: write dollars with up to two decimals, like 6.95, at most 1000000.00")
                return nil
            }
            return price
        }
        let price = money("price", required: true)
        let freeFrom = money("free_from", required: false)
        let countriesText = text("countries", required: true)
        var countries: [String] = []
        if countriesText != "*" {
            for code in countriesText.split(whereSeparator: { $0 == " " || $0 == "," }) {
                if let country = Country.named(String(code)) {
                    if !countries.contains(country.code) { countries.append(country.code) }
                } else {
                    problem("countries", "“\(code)” is not a country's ISO 3166-1 code (like US, CA, NO); write * for every country")
                }
            }
        }
        let paymentText = text("payment", required: true)
        let payment = DeliveryMethod.Payment(rawValue: paymentText.lowercased())
        if !paymentText.isEmpty, payment == nil {
            problem("payment", "“\(paymentText)” is not a way to pay: write bank-transfer, on-delivery or in-store")
        }
        let details = text("payment_details", required: false)
        guard problems.count == before, let price, let payment, !countriesText.isEmpty else { return nil }
        return DeliveryMethod(
            code: code, name: name, price: price, countries: countries, freeFrom: freeFrom, payment: payment, paymentDetails: details
        )
    }

    /// The methods as a delivery file that imports back unchanged.
    static func text(of methods: [DeliveryMethod], format: TableFile.Format) -> String {
        func countries(_ method: DeliveryMethod) -> String { method.countries.isEmpty ? "*" : method.countries.joined(separator: " ") }
        switch format {
        case .csv:
            return TableFile.csvText(fields: fields, rows: methods.map { method in
                [
                    method.code, method.name, CatalogFile.priceText(method.price), countries(method),
                    method.freeFrom.map(CatalogFile.priceText) ?? "", method.payment.rawValue, method.paymentDetails,
                ]
            })
        case .json:
            return TableFile.jsonText(methods.map { method in
                [
                    ("code", JSONText.quoted(method.code)), ("name", JSONText.quoted(method.name)),
                    ("price", JSONText.quoted(CatalogFile.priceText(method.price))), ("countries", JSONText.quoted(countries(method))),
                    ("free_from", method.freeFrom.map { JSONText.quoted(CatalogFile.priceText($0)) } ?? "null"),
                    ("payment", JSONText.quoted(method.payment.rawValue)), ("payment_details", JSONText.quoted(method.paymentDetails)),
                ]
            })
        }
    }
}
