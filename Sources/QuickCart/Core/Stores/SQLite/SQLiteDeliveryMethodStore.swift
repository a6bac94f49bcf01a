import SQLite

/// The shop's delivery methods in SQLite (`delivery_methods`), in the file's order.
struct SQLiteDeliveryMethodStore: DeliveryMethodStore {
    let pool: SQLiteStoragePool

    func deliveryMethods() throws -> [DeliveryMethod] {
        try pool.read { db in try Self.methods(in: db, where: "1", []) }
    }

    func replaceDeliveryMethods(_ methods: [DeliveryMethod]) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM delivery_methods")
            try Self.insert(methods, into: db)
        }
    }

    /// The methods `condition` picks, in order.
    static func methods(in db: Database, where condition: String, _ arguments: StatementArguments) throws -> [DeliveryMethod] {
        try db.fetchAll(
            "SELECT \(DeliveryMethodColumns.list) FROM delivery_methods WHERE \(condition) ORDER BY position", arguments
        ) { row in try DeliveryMethodColumns.method(from: row) }
    }

    /// Inserts `methods` at positions in their order (the demo's, by the migration; an import's).
    static func insert(_ methods: [DeliveryMethod], into db: Database) throws {
        for (position, method) in methods.enumerated() {
            try db.execute(
                """
                INSERT INTO delivery_methods (code, position, name, price_cents, countries, free_from_cents, payment, payment_details)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [method.code, position, method.name, method.price, DeliveryMethodColumns.text(of: method.countries), method.freeFrom,
                 method.payment.rawValue, method.paymentDetails]
            )
        }
    }
}
