import Postgres

/// Shoppers' saved delivery details in PostgreSQL (`delivery_details`, one row per shopper).
struct PostgresDeliveryDetailsStore: DeliveryDetailsStore {
    let pool: PostgresStoragePool

    func deliveryDetails(for session: Session) throws -> SavedDeliveryDetails? {
        guard session.isStored else { return nil }
        return try pool.withConnection { connection in
            try connection.fetchOne(
                "SELECT version, \(DeliveryDetailsColumns.list) FROM delivery_details WHERE shopper_id = $1", session.shopperID
            ) { row in try DeliveryDetailsColumns.saved(from: row) }
        }
    }

    func saveDeliveryDetails(_ details: DeliveryDetails, for session: Session, at nowMilliseconds: Int64) throws -> Int64 {
        try pool.write(asClientOf: session, storingAt: nowMilliseconds / 1000) { connection, shopperID in
            let fields = DeliveryDetails.Field.allCases
            let values = fields.indices.map { "$\($0 + 4)" }.joined(separator: ", ")
            let updates = fields.map { "\($0.rawValue) = excluded.\($0.rawValue)" }.joined(separator: ", ")
            // One statement: a save racing another of the same shopper waits for its row, then
            // counts on from the version it committed. The same details again keep their
            // version (as on SQLite), so a Review showing them stays current.
            let columns = fields.map { "delivery_details.\($0.rawValue)" }.joined(separator: ", ")
            let sameColumns = fields.map { "excluded.\($0.rawValue)" }.joined(separator: ", ")
            return try connection.fetchValue(
                """
                INSERT INTO delivery_details (shopper_id, version, saved_at, \(DeliveryDetailsColumns.list))
                VALUES ($1, $2, $3, \(values))
                ON CONFLICT (shopper_id) DO UPDATE SET
                    version = CASE WHEN (\(columns)) IS NOT DISTINCT FROM (\(sameColumns)) THEN delivery_details.version
                                   ELSE greatest(delivery_details.version + 1, excluded.version) END,
                    saved_at = excluded.saved_at, \(updates)
                RETURNING version
                """,
                arguments: [shopperID.postgresValue, nowMilliseconds.postgresValue, (nowMilliseconds / 1000).postgresValue]
                    + fields.map { details[$0].postgresValue },
                as: Int64.self
            ) ?? nowMilliseconds
        }
    }

    func deleteDeliveryDetails(for session: Session) throws -> Bool {
        guard session.isStored else { return false }
        return try pool.write(asClientOf: session) { connection, shopperID in
            try connection.execute("DELETE FROM delivery_details WHERE shopper_id = $1", shopperID) > 0
        }
    }
}
