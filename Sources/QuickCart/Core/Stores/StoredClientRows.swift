/// A client's session as the one statement of ``SessionStore/session(clientID:)`` reads it on
/// every backend: the client, its shopper, the newest search, and its cart lines joined on, a
/// row per line (one row of NULL lines for an empty cart, one row with the spent mark for a
/// spent client). Each backend writes the SQL; this reads its rows, whose columns are, in order:
///
/// | # | column | # | column |
/// | --- | --- | --- | --- |
/// | 0 | spent (or no shopper) | 7 | tab order |
/// | 1 | the client's last seen | 8 | sidebar |
/// | 2 | shopper id | 9 | notifications |
/// | 3 | shopper's live key | 10 | cart version (on a line's row, it may be that line's) |
/// | 4 | shopper's created at | 11 | line's product id (NULL without lines) |
/// | 5 | display name | 12 | line's quantity |
/// | 6 | theme | 13 | the newest search (NULL without) |
///
/// The session's columns are read once, from the first row, and only the line columns from
/// each row that has a line; lines of products the catalog no longer has are left out. The
/// cart's version is the greatest of column 10 over the rows: a backend may keep it on the
/// shopper alone, or on the lines a change wrote too (SQLite).
struct StoredClientRows {
    /// A client of `SELECT id, device, created_at, last_seen FROM clients`, for the devices list.
    static func device<Row: StoredRow & ~Copyable>(from row: borrowing Row) throws -> StoredDevice {
        StoredDevice(clientID: try row.string(0), device: try row.string(1), createdAt: try row.int64(2), lastSeen: try row.int64(3))
    }

    /// The catalog the lines' products are looked up in.
    let catalog: Catalog
    private var stored: StoredClient?
    private var items: [Cart.Item] = []
    /// The greatest version the lines' rows carry.
    private var lineVersion: Int64 = 0
    /// Whether the first row has been read, and whether it was a client with a shopper, whose
    /// lines the rows are: flags, as matching `stored` on every row copied the whole session.
    private var readFirst = false
    private var readsLines = false

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Reads one row of the statement's result.
    mutating func read<Row: StoredRow & ~Copyable>(_ row: borrowing Row) throws {
        if !readFirst {
            readFirst = true
            if try row.bool(0) {
                stored = .spent
                return
            }
            readsLines = true
            stored = .active(StoredSession(
                shopperID: try row.string(2), shopperLiveKey: try row.string(3), createdAt: try row.int64(4),
                lastSeen: try row.int64(1), displayName: try row.string(5),
                preferences: Preferences(
                    storedTheme: try row.string(6), storedTabOrder: try row.string(7),
                    usesSidebar: try row.bool(8), notifications: try row.bool(9)
                ),
                cart: Cart(), cartVersion: try row.int64(10),
                newestSearch: try row.optionalString(13)
            ))
        }
        guard readsLines, !(try row.isNull(11)) else { return }
        lineVersion = max(lineVersion, try row.int64(10))
        guard let product = catalog.product(id: try row.int64(11)) else { return }
        items.append(Cart.Item(product: product, quantity: try row.int(12)))
    }

    /// The client the rows read: `nil` when there were none (no such client).
    var client: StoredClient? {
        guard case .active(var session) = stored else { return stored }
        session.cart.items = items
        session.cartVersion = max(session.cartVersion, lineVersion)
        return .active(session)
    }
}
