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
            "SELECT \(DeliveryMethodColumns.list) FROM delivery_methods WHERE \(condition) ORDER BY position", arguments: arguments
        ) { row in try DeliveryMethodColumns.method(from: row) }
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
