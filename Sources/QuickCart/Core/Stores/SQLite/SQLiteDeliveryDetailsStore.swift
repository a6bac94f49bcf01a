import SQLite

/// Shoppers' saved delivery details in SQLite (`delivery_details`, one row per shopper).
struct SQLiteDeliveryDetailsStore: DeliveryDetailsStore {
    let pool: SQLiteStoragePool

    func deliveryDetails(for session: Session) throws -> SavedDeliveryDetails? {
        guard session.isStored else { return nil }
        return try pool.read { db in
            try db.withFirstRow(
                """
                SELECT version, \(DeliveryDetailsColumns.list) FROM delivery_details WHERE shopper_id = ?
                """,
                [session.shopperID]
            ) { row in try DeliveryDetailsColumns.saved(from: row) }
        }
    }

    func saveDeliveryDetails(_ details: DeliveryDetails, for session: Session, at nowMilliseconds: Int64) throws -> Int64 {
        try pool.write(asClientOf: session, storingAt: nowMilliseconds / 1000) { db, shopperID in
            let previous = try db.withFirstRow(
                "SELECT version, \(DeliveryDetailsColumns.list) FROM delivery_details WHERE shopper_id = ?", [shopperID]
            ) { row in try DeliveryDetailsColumns.saved(from: row) }
            // The same details again (Delivery's Continue, another tab's) keep their version, so
            // a Review showing them stays current. Byte for byte, as PostgreSQL compares them.
            if let previous, DeliveryDetails.Field.allCases.allSatisfy({ previous.details[$0].utf8.elementsEqual(details[$0].utf8) }) {
                return previous.version
            }
            let version = max((previous?.version ?? 0) + 1, nowMilliseconds)
            let fields = DeliveryDetails.Field.allCases
            try db.execute(
                """
                INSERT OR REPLACE INTO delivery_details (shopper_id, version, saved_at, \(DeliveryDetailsColumns.list))
                VALUES (?, ?, ?\(String(repeating: ", ?", count: fields.count)))
                """,
                StatementArguments([shopperID.databaseValue, version.databaseValue, (nowMilliseconds / 1000).databaseValue] + fields.map { details[$0].databaseValue })
            )
            return version
        }
    }

    func deleteDeliveryDetails(for session: Session) throws -> Bool {
        guard session.isStored else { return false }
        return try pool.write(asClientOf: session) { db, shopperID in
            try db.execute("DELETE FROM delivery_details WHERE shopper_id = ?", [shopperID])
            return db.changes > 0
        }
    }
}
