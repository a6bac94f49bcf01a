import SQLite

/// What the SQLite stores share: the pool, the live catalog (carts are read as product ids;
/// it gives the starter cart), and the one place SQLite's passing failures become ``StorageError``.
struct SQLiteStoragePool: Sendable {
    let connections: DatabasePool
    let liveCatalog: LiveCatalog

    /// A borrowed connection, outside any transaction: one statement is its own snapshot.
    func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.mapping { try connections.withConnection(body) }
    }

    /// A read transaction: one snapshot for several statements.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.mapping { try connections.read(body) }
    }

    /// A write transaction that first stores `session`'s shopper and client if they are not
    /// stored yet, so they and the first change land together or not at all.
    func write<T>(storing session: Session, at now: Int64, _ body: (Database) throws -> T) throws -> T {
        try write { db in
            try store(session, in: db, at: now)
            return try body(db)
        }
    }

    /// A write transaction for the shopper `session`'s client belongs to now, which `body` is
    /// given: another one when the client joined another cart after the request read the
    /// session (the session's own for a client not stored). With `storingAt`, the session is
    /// stored first if it is not stored yet.
    /// - Throws: ``StorageError/signedOut``, writing nothing, for a client signed out meanwhile.
    @discardableResult
    func write<T>(asClientOf session: Session, storingAt now: Int64? = nil, _ body: (Database, _ shopperID: String) throws -> T) throws -> T {
        try write { db in
            if let now { try store(session, in: db, at: now) }
            // The write is the only one of the process: the client cannot move before the commit.
            // No row: a client not stored, whose shopper is the session's; a row naming no shopper: a client spent.
            let shopperID = try db.withFirstRow("SELECT shopper_id FROM clients WHERE id = ?", [session.clientID]) { row in
                try row.get(0, as: String?.self)
            }
            switch shopperID {
            case .none: return try body(db, session.shopperID)
            case .some(.none): throw StorageError.signedOut
            case .some(.some(let shopperID)): return try body(db, shopperID)
            }
        }
    }

    /// A write transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.mapping { try connections.write(body) }
    }

    /// Stores `session`'s shopper with the starter cart (unless it starts empty) and the
    /// searches waiting in its cookie, and its client, unless stored already.
    private func store(_ session: Session, in db: Database, at now: Int64) throws {
        // A session read from the database moments ago is there: no insert to attempt.
        guard !session.isStored else { return }
        try db.execute(
            "INSERT OR IGNORE INTO shoppers (id, created_at, last_seen, display_name, live_key) VALUES (?, ?, ?, ?, ?)",
            [session.shopperID, session.createdAt, now, session.displayName, session.shopperLiveKey]
        )
        if db.changes == 1 {
            for (offset, item) in (session.startsEmpty ? [] : liveCatalog.current.starterCart.items).enumerated() {
                try db.execute(
                    "INSERT INTO cart_items (shopper_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)",
                    [session.shopperID, item.product.id, item.quantity, now * 1000 + Int64(offset)]
                )
            }
            try SQLiteSearchHistoryStore.addWaiting(session.waitingSearches, to: session.shopperID, at: now, in: db)
        }
        try db.execute(
            "INSERT OR IGNORE INTO clients (id, shopper_id, created_at, last_seen, device) VALUES (?, ?, ?, ?, ?)",
            [session.clientID, session.shopperID, now, now, session.device]
        )
    }

    /// Runs `body`, turning SQLite's failures that pass with their cause (space, permissions,
    /// locks, I/O) into ``StorageError/unavailable(reason:)``. The transaction they hit has
    /// rolled back by then, so nothing changed.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where passingCodes.contains(error.code) {
            throw StorageError.unavailable(reason: error.description)
        }
    }

    private static let passingCodes: [SQLiteError.Code] = [.full, .readOnly, .busy, .locked, .ioError, .cantOpen, .permission]
}

/// SQLite's rows, copied or read in place, as the shared decoding reads them.
extension Row: StoredRow {}
extension StatementRow: StoredRow {}
