import Postgres

/// What the PostgreSQL stores share: the pool, the live catalog (carts are read as product
/// ids; it gives the starter cart), and the one place PostgreSQL's passing failures become
/// ``StorageError``.
struct PostgresStoragePool: Sendable {
    let connections: PostgresPool
    let liveCatalog: LiveCatalog
    /// Shared by every copy of the pool: what the last call found.
    let outage = OutageWatch()

    /// How often a transaction that lost a race (serialization failure, deadlock) runs at most.
    static let maximumAttempts = 5

    /// A borrowed connection, outside any transaction: one statement is its own snapshot.
    @discardableResult
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try reaching { try connections.withConnection(body) }
    }

    /// A transaction that first stores `session`'s shopper and client if they are not stored
    /// yet, so they and the first change land together or not at all.
    @discardableResult
    func write<T>(storing session: Session, at now: Int64, _ body: (PostgresConnection) throws -> T) throws -> T {
        try write { connection in
            try store(session, in: connection, at: now)
            return try body(connection)
        }
    }

    /// A transaction for the shopper `session`'s client belongs to now, which `body` is given:
    /// another one when the client joined another cart after the request read the session
    /// (the session's own for a client not stored). With `storingAt`, the session is stored
    /// first if it is not stored yet. The shopper's row stays locked to the end, as a cart
    /// change, a join and "Sign out everywhere" lock it: no join moves the client out of it
    /// meanwhile, and the locks are taken in no order that could deadlock with theirs.
    /// - Throws: ``StorageError/signedOut``, writing nothing, for a client signed out meanwhile.
    @discardableResult
    func write<T>(asClientOf session: Session, storingAt now: Int64? = nil, _ body: (PostgresConnection, _ shopperID: String) throws -> T) throws -> T {
        try write { connection in
            if let now { try store(session, in: connection, at: now) }
            // The session's shopper first, as the client is found in nearly always; each further
            // turn follows a join that committed before the lock was held.
            var shopperID = session.shopperID
            for _ in 1...ClientMoves.attempts {
                _ = try connection.fetchValue("SELECT id FROM shoppers WHERE id = $1 FOR UPDATE", shopperID, as: String.self)
                let holding = shopperID
                shopperID = try Self.shopper(of: session, in: connection)
                if shopperID == holding { return try body(connection, shopperID) }
            }
            throw ClientMoves.movedTooOften
        }
    }

    /// The shopper `session`'s client belongs to as last committed; the session's own for a
    /// client not stored.
    /// - Throws: ``StorageError/signedOut`` for a client spent.
    private static func shopper(of session: Session, in connection: PostgresConnection) throws -> String {
        let stored = try connection.fetchOne("SELECT shopper_id FROM clients WHERE id = $1", session.clientID) { row in
            try row.get(0, as: String?.self)
        }
        switch stored {
        case .none: return session.shopperID
        case .some(.none): throw StorageError.signedOut
        case .some(.some(let shopperID)): return shopperID
        }
    }

    /// A read-committed transaction, rerun a few times if it loses a race.
    @discardableResult
    func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try reaching { try connections.transaction(maximumAttempts: Self.maximumAttempts, body) }
    }

    /// Stores `session`'s shopper with the starter cart (unless it starts empty), and its
    /// client, unless stored already, in one statement; then the searches waiting in its
    /// cookie, if any. Another transaction storing the same ones meanwhile makes this one wait
    /// for it and then insert nothing.
    private func store(_ session: Session, in connection: PostgresConnection, at now: Int64) throws {
        // A session read from the database moments ago is there: no insert to attempt.
        guard !session.isStored else { return }
        // The starter cart as two array literals.
        let starterCart = session.startsEmpty ? Cart() : liveCatalog.current.starterCart
        let starterProductIDs = "{" + starterCart.items.map { String($0.product.id) }.joined(separator: ",") + "}"
        let starterQuantities = "{" + starterCart.items.map { String($0.quantity) }.joined(separator: ",") + "}"
        // The client's reference is checked at the end of the statement, when the shopper is in.
        // Its one row says whether it stored the shopper (rather than a racing first change).
        let storedShopper = try connection.fetchAll(query: """
            WITH stored AS (
                INSERT INTO shoppers (id, created_at, last_seen, display_name, live_key)
                VALUES (\(session.shopperID), \(session.createdAt), \(now), \(session.displayName), \(session.shopperLiveKey))
                ON CONFLICT (id) DO NOTHING RETURNING id
            ), client AS (
                INSERT INTO clients (id, shopper_id, created_at, last_seen, device)
                VALUES (\(session.clientID), \(session.shopperID), \(now), \(now), \(session.device))
                ON CONFLICT (id) DO NOTHING
            ), lines AS (
                INSERT INTO cart_items (shopper_id, product_id, quantity, added_at)
                SELECT stored.id, item.product_id, item.quantity, \(now)::bigint * 1000 + item.position - 1
                FROM stored, unnest(\(starterProductIDs)::bigint[], \(starterQuantities)::integer[]) WITH ORDINALITY AS item (product_id, quantity, position)
            )
            SELECT count(*) FROM stored
            """) { row in try row.get(0, as: Int64.self) }
        if storedShopper == [1] {
            try PostgresSearchHistoryStore.addWaiting(session.waitingSearches, to: session.shopperID, at: now, in: connection)
        }
    }

    /// Runs `body`, a call to the database, as ``mapping(_:)`` does, noting in ``outage``
    /// whether it reached the database.
    func reaching<T>(_ body: () throws -> T) throws -> T {
        try outage.watching { try Self.mapping(body) }
    }

    /// Runs `body`, turning PostgreSQL's passing failures (unreachable, restarting, out of
    /// connections or space, a race lost too often) into ``StorageError/unavailable(reason:)``.
    /// The transaction they hit has rolled back by then, so nothing changed.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.isUnavailable || error.isTransactionRetryable || passingCodes.contains(where: error.has) {
            throw StorageError.unavailable(reason: error.description)
        }
    }

    /// Disk full, out of memory, a read-only server (a standby, or read-only by setting), a
    /// statement or lock timeout.
    private static let passingCodes: [PostgresError.Code] = [.diskFull, .outOfMemory, .readOnlySQLTransaction, .queryCanceled, .lockNotAvailable]
}

/// PostgreSQL's rows, as the shared decoding reads them.
extension PostgresRow: StoredRow {}
