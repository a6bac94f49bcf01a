import Postgres

/// Shoppers and their clients, in PostgreSQL.
struct PostgresSessionStore: SessionStore {
    /// The advisory lock held while purging, so one instance of the cluster purges at a time
    /// and the others skip their turn: "QCPURGE" in ASCII.
    static let purgeLockKey: Int64 = 0x51_4350_5552_4745

    let pool: PostgresStoragePool

    func session(clientID: String) throws -> StoredClient? {
        // One statement is its own snapshot: the client, its shopper and the cart lines are
        // read at one moment. A shopper without lines gives one row of NULLs for them; a spent
        // client one row with its mark. The newest search (of at most five) comes along, for
        // the Search tab's link, bound to the client's id so it runs once (``StoredClientRows``
        // names the columns).
        var rows = StoredClientRows(catalog: pool.liveCatalog.current.catalog)
        try pool.withConnection { connection in
            _ = try connection.fetchAll(
                """
                SELECT cl.spent_at IS NOT NULL OR s.id IS NULL, cl.last_seen, s.id, s.live_key, s.created_at, s.display_name,
                       s.theme, s.tab_order, s.sidebar, s.notifications, s.cart_version, c.product_id, c.quantity,
                       (SELECT query FROM recent_searches r WHERE r.shopper_id = (SELECT shopper_id FROM clients WHERE id = $1)
                        ORDER BY r.searched_at DESC, r.query LIMIT 1)
                FROM clients cl LEFT JOIN shoppers s ON s.id = cl.shopper_id LEFT JOIN cart_items c ON c.shopper_id = s.id
                WHERE cl.id = $1 ORDER BY c.added_at, c.product_id
                """,
                clientID
            ) { row in
                try rows.read(row)
            }
        }
        return rows.client
    }

    func touch(clientID: String, at now: Int64) throws {
        try pool.withConnection { connection in
            try connection.execute("UPDATE clients SET last_seen = $1 WHERE id = $2 AND spent_at IS NULL", now, clientID)
        }
    }

    func setDisplayName(_ name: String, for session: Session, at now: Int64) throws {
        try pool.write(asClientOf: session, storingAt: now) { connection, shopperID in
            try connection.execute("UPDATE shoppers SET display_name = $1, last_seen = $2 WHERE id = $3", name, now, shopperID)
        }
    }

    func setPreferences(_ preferences: Preferences, for session: Session, at now: Int64) throws {
        try pool.write(asClientOf: session, storingAt: now) { connection, shopperID in
            try connection.execute(query: """
                UPDATE shoppers SET theme = \(preferences.theme.rawValue), tab_order = \(preferences.storedTabOrder),
                    sidebar = \(preferences.usesSidebar), notifications = \(preferences.notifications), last_seen = \(now)
                WHERE id = \(shopperID)
                """)
        }
    }

    func devices(ofShopper shopperID: String) throws -> [StoredDevice] {
        try pool.withConnection { connection in
            try connection.fetchAll(
                "SELECT id, device, created_at, last_seen FROM clients WHERE shopper_id = $1 ORDER BY created_at, id", shopperID
            ) { row in try StoredClientRows.device(from: row) }
        }
    }

    @discardableResult
    func endClients(_ clientIDs: [String], ofShopper shopperID: String, spendingUnstored: String?, at now: Int64) throws -> [String] {
        try pool.write { connection in
            // Rows in the order a join takes them, the clients (then the codes) and then the
            // shoppers: a join in flight commits first, and what it moved is seen below.
            var ownShopper: String?
            for clientID in Set(clientIDs + (spendingUnstored.map { [$0] } ?? [])).sorted() {
                let current = try connection.fetchOne(
                    "SELECT shopper_id, spent_at IS NOT NULL FROM clients WHERE id = $1 FOR UPDATE", clientID
                ) { row in (shopper: try row.get(0, as: String?.self), isSpent: try row.bool(1)) }
                guard clientID == spendingUnstored else { continue }
                // Spent meanwhile, by another sign-out or by a join that moved this browser to a
                // new id (whose cookie it holds now): this request's id has nothing left to sign out.
                if current?.isSpent == true { throw StorageError.signedOut }
                ownShopper = current?.shopper ?? nil
            }
            // The caller's own client is signed out of whichever cart a join moved it to.
            let shoppers = Set([shopperID] + (ownShopper.map { [$0] } ?? [])).sorted()
            // A shopper deleted below takes its codes along: their rows before the shoppers',
            // as a join takes its code's row before the shoppers', or the two would deadlock.
            for shopper in shoppers {
                _ = try connection.execute("SELECT 1 FROM join_codes WHERE shopper_id = $1 FOR UPDATE", shopper)
            }
            for shopper in shoppers {
                _ = try connection.fetchValue("SELECT id FROM shoppers WHERE id = $1 FOR UPDATE", shopper, as: String.self)
            }
            var ended: [String] = []
            for clientID in clientIDs {
                // The row stays as the mark that the id is spent; it no longer names a shopper.
                let changed = try connection.execute(
                    "UPDATE clients SET shopper_id = NULL, spent_at = $1 WHERE id = $2 AND shopper_id = $3",
                    now, clientID, clientID == spendingUnstored ? ownShopper ?? shopperID : shopperID
                )
                if changed == 1 { ended.append(clientID) }
            }
            if let unstored = spendingUnstored, !ended.contains(unstored) {
                // Spent even if its own join stored it meanwhile (and waited for that here); but a
                // join that spent it first moved this browser to a new id, whose cookie it holds
                // now: this request's id has nothing left to sign out.
                let spent = try connection.fetchAll(
                    """
                    INSERT INTO clients (id, shopper_id, created_at, last_seen, spent_at) VALUES ($1, NULL, $2, $2, $2)
                    ON CONFLICT (id) DO UPDATE SET shopper_id = NULL, spent_at = excluded.spent_at WHERE clients.spent_at IS NULL
                    RETURNING id
                    """,
                    unstored, now
                ) { row in try row.string(0) }
                if spent.isEmpty { throw StorageError.signedOut }
            }
            // Its cart lines and searches go with it (ON DELETE CASCADE); its orders stay.
            for shopper in shoppers {
                try connection.execute(
                    "DELETE FROM shoppers WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM clients WHERE shopper_id = $1)", shopper
                )
            }
            return ended
        }
    }

    @discardableResult
    func endClients(ofShopper shopperID: String, except clientID: String, at now: Int64) throws -> [String] {
        try pool.write { connection in
            // The shopper's lock first: a join into it in flight commits before the clients are
            // read; one that comes later finds the device that showed its code spent.
            _ = try connection.fetchValue("SELECT id FROM shoppers WHERE id = $1 FOR UPDATE", shopperID, as: String.self)
            return try connection.fetchAll(
                "UPDATE clients SET shopper_id = NULL, spent_at = $1 WHERE shopper_id = $2 AND id <> $3 RETURNING id", now, shopperID, clientID
            ) { row in try row.string(0) }
        }
    }

    /// Purges once across the cluster: an instance that finds another purging deletes
    /// nothing and returns 0 (the other one's purge covers the same clients).
    @discardableResult
    func deleteSessions(lastSeenBefore cutoff: Int64) throws -> Int {
        try pool.write { connection in
            // Released with the transaction, so a crashed purger leaves no lock behind.
            let locked: Bool = try connection.fetchValue("SELECT pg_try_advisory_xact_lock($1)", Self.purgeLockKey) ?? false
            guard locked else { return 0 }
            let deleted = try connection.execute("DELETE FROM clients WHERE spent_at IS NULL AND last_seen < $1", cutoff)
            // A mark older than the idle lifetime guards nothing: every cookie of that client
            // was issued before it, so it has expired by itself.
            try connection.execute("DELETE FROM clients WHERE spent_at < $1", cutoff)
            try connection.execute("DELETE FROM join_codes WHERE expires_at < $1", cutoff)
            try connection.execute("DELETE FROM shoppers s WHERE NOT EXISTS (SELECT 1 FROM clients c WHERE c.shopper_id = s.id)")
            return deleted
        }
    }
}
