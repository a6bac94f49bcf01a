import Postgres

/// The shop's delivery methods in PostgreSQL (`delivery_methods`), in the file's order.
struct PostgresDeliveryMethodStore: DeliveryMethodStore {
    let pool: PostgresStoragePool

    func deliveryMethods() throws -> [DeliveryMethod] {
        try pool.withConnection { connection in try Self.methods(in: connection, where: "true", []) }
    }

    func replaceDeliveryMethods(_ methods: [DeliveryMethod]) throws {
        try pool.write { connection in
            try connection.execute(sql: "DELETE FROM delivery_methods")
            try Self.insert(methods, into: connection)
        }
    }

    /// The methods `condition` picks, in order.
    static func methods(in connection: PostgresConnection, where condition: String, _ arguments: [PostgresValue]) throws -> [DeliveryMethod] {
        try connection.fetchAll(
            """
            SELECT code, name, price_cents, countries, free_from_cents, payment, payment_details
            FROM delivery_methods WHERE \(condition) ORDER BY position
            """,
            arguments: arguments
        ) { row in
            DeliveryMethod(
                code: try row.string(0), name: try row.string(1), price: try row.get(2),
                countries: DeliveryMethodColumns.countries(try row.string(3)), freeFrom: try row.get(4),
                payment: DeliveryMethod.Payment(rawValue: try row.string(5)) ?? .bankTransfer, paymentDetails: try row.string(6)
            )
        }
    }

    /// Inserts `methods` at positions in their order (the demo's, by the migration; an import's).
    static func insert(_ methods: [DeliveryMethod], into connection: PostgresConnection) throws {
        for (position, method) in methods.enumerated() {
            try connection.execute(
                """
                INSERT INTO delivery_methods (code, position, name, price_cents, countries, free_from_cents, payment, payment_details)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                method.code, position, method.name, method.price, DeliveryMethodColumns.text(of: method.countries), method.freeFrom,
                method.payment.rawValue, method.paymentDetails
            )
        }
    }
}
