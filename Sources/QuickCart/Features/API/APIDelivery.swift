/// Delivery through the API: the body's `delivery` object (the web's Delivery step's fields,
/// checked by the same ``DeliveryDetails/problems(methods:)``), else the shopper's saved
/// details; the order's delivery and the methods as JSON.
enum APIDelivery {
    /// The JSON member of each field of ``DeliveryDetails``.
    static let members: [(name: StaticString, field: DeliveryDetails.Field)] = [
        ("name", .name), ("email", .email), ("phone", .phone), ("addressLine1", .addressLine1), ("addressLine2", .addressLine2),
        ("city", .city), ("region", .region), ("postalCode", .postalCode), ("country", .country), ("method", .method),
    ]

    /// What checkout's body may hold (made for each checkout, as ``APICheckoutLines/field`` is).
    static var checkoutFields: [String: APIBody.FieldType] {
        [
            "delivery": .object(Dictionary(uniqueKeysWithValues: members.map { ($0.name.description, .string) })),
            "lines": APICheckoutLines.field,
        ]
    }

    /// The details of the body's `delivery`, tidied as the web's form is (trimmed, the
    /// country's code in capitals); `nil` without one.
    static func details(in body: APIBody) -> DeliveryDetails? {
        guard let object = body.object("delivery") else { return nil }
        return DeliveryDetails { field in
            members.first { $0.field == field }.flatMap { object.string($0.name.description) } ?? ""
        }
    }

    /// The order's delivery for `details`, checked against the shop's `methods`.
    /// - Throws: ``APIProblem/Kind/invalidValue`` naming the first field at fault (`delivery.city`).
    static func delivery(_ details: DeliveryDetails, methods: [DeliveryMethod], subtotal: Money, saved: Bool) throws(APIProblem) -> OrderDelivery {
        if let problem = details.problems(methods: methods).first {
            let name = members.first { $0.field == problem.field }?.name.description ?? problem.field.rawValue
            let whose = saved ? "The saved delivery details: " : ""
            throw APIProblem(.invalidValue, whose + problem.message, field: "delivery." + name)
        }
        guard let method = methods.first(where: { $0.code == details.method }) else {
            throw APIProblem(.invalidValue, "Choose how the order is delivered.", field: "delivery.method")
        }
        return OrderDelivery(details: details, method: method, subtotal: subtotal)
    }

    static func details(_ details: DeliveryDetails, into json: inout JSONWriter) {
        json.object { json in
            for member in members where member.field != .method {
                json.field(member.name) { $0.string(details[member.field]) }
            }
            json.field("countryName") { $0.string(details.countryName) }
        }
    }

    /// An order's delivery method as placed: its name and price then, and how it is paid.
    static func method(of delivery: OrderDelivery, into json: inout JSONWriter) {
        json.object { json in
            json.field("code") { $0.string(delivery.details.method) }
            json.field("name") { $0.string(delivery.methodName) }
            json.field("price") { APIModels.money(delivery.price, into: &$0) }
            json.field("payment") { $0.string(delivery.payment.rawValue) }
            json.field("howToPay") { $0.string(delivery.howToPay) }
        }
    }

    /// One of the shop's methods, as `GET /api/v1/delivery-methods` lists it.
    static func method(_ method: DeliveryMethod, into json: inout JSONWriter) {
        json.object { json in
            json.field("code") { $0.string(method.code) }
            json.field("name") { $0.string(method.name) }
            json.field("price") { APIModels.money(method.price, into: &$0) }
            json.field("freeFrom") { json in
                guard let freeFrom = method.freeFrom else { return json.null() }
                APIModels.money(freeFrom, into: &json)
            }
            json.field("countries") { json in json.array { json in for country in method.countries { json.string(country) } } }
            json.field("payment") { $0.string(method.payment.rawValue) }
            json.field("howToPay") { $0.string(method.howToPay) }
        }
    }
}
