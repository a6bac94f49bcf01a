import MicroHTTP
import Postgres
@testable import QuickCart
import SQLite
import Testing

/// The migration that turns sessions into shoppers, from a database made by the old schema:
/// every session becomes a shopper with one client, losing nothing, and its cookie keeps working;
/// and the one after it, that gives each order placed before it a history: placed, at its time.
@Suite("Shopper migration")
struct ShopperMigrationTests {
    /// What both backends undo first, newest first: checkout's delivery details and methods,
    /// order intents, order states and join codes.
    static let beforeJoinCodes = """
        DROP TABLE delivery_details;
        DROP TABLE delivery_methods;
        ALTER TABLE orders DROP COLUMN contact_name;
        ALTER TABLE orders DROP COLUMN email;
        ALTER TABLE orders DROP COLUMN phone;
        ALTER TABLE orders DROP COLUMN address_line1;
        ALTER TABLE orders DROP COLUMN address_line2;
        ALTER TABLE orders DROP COLUMN city;
        ALTER TABLE orders DROP COLUMN region;
        ALTER TABLE orders DROP COLUMN postal_code;
        ALTER TABLE orders DROP COLUMN country;
        ALTER TABLE orders DROP COLUMN delivery_method;
        ALTER TABLE orders DROP COLUMN delivery_name;
        ALTER TABLE orders DROP COLUMN delivery_cents;
        ALTER TABLE orders DROP COLUMN payment;
        ALTER TABLE orders DROP COLUMN payment_details;
        DROP INDEX orders_by_intent;
        ALTER TABLE orders DROP COLUMN intent;
        DROP TABLE order_states;
        DROP TABLE join_codes;
        """

    /// Takes a SQLite database of the newest schema back to the one before `v10-shoppers`
    /// (and the migrations after it: `v11-product-words`, `v12-join-codes`, `v13-order-states`,
    /// `v14-order-intents`, `v15-checkout`, `v16-line-versions`, `v17-newest-search`,
    /// `v18-change-keys`).
    static let sqliteBeforeShoppers = """
        ALTER TABLE cart_items DROP COLUMN change_key;
        DROP TRIGGER recent_searches_insert;
        DROP TRIGGER recent_searches_update;
        DROP TRIGGER recent_searches_delete;
        ALTER TABLE shoppers DROP COLUMN newest_search;
        ALTER TABLE cart_items DROP COLUMN version;

        """ + beforeJoinCodes + """
        DROP TRIGGER products_words_insert;
        DROP TRIGGER products_words_delete;
        DROP TRIGGER products_words_update;
        DROP TABLE product_words;
        DROP TABLE clients;
        ALTER TABLE shoppers DROP COLUMN live_key;
        ALTER TABLE shoppers RENAME TO sessions;
        ALTER TABLE cart_items RENAME COLUMN shopper_id TO session_id;
        ALTER TABLE recent_searches RENAME COLUMN shopper_id TO session_id;
        ALTER TABLE orders RENAME COLUMN shopper_id TO session_id;
        """

    /// The old schema's rows of one session, under `id` (a stored session's id: the hash of
    /// its cookie's id), and an order of another session.
    private static func oldRows(_ id: String, placeholder: (Int) -> String) -> [(String, [String])] {
        [
            ("INSERT INTO sessions (id, created_at, last_seen, display_name, theme, cart_version\(placeholder(0))) VALUES (\(placeholder(1)), 100, 200, 'Dana', 'dark', 7\(placeholder(2)))", [id]),
            ("INSERT INTO cart_items (session_id, product_id, quantity, added_at) VALUES (\(placeholder(1)), 3, 2, 1)", [id]),
            ("INSERT INTO cart_items (session_id, product_id, quantity, added_at) VALUES (\(placeholder(1)), 1, 4, 2)", [id]),
            ("INSERT INTO recent_searches (session_id, query, searched_at) VALUES (\(placeholder(1)), 'tent', 1)", [id]),
            ("INSERT INTO orders (id, session_id, placed_at) VALUES (41, \(placeholder(1)), 150)", [id]),
            ("INSERT INTO order_lines (order_id, position, product_id, name, unit_price_cents, quantity) VALUES (41, 1, 3, 'Tent', 19900, 1)", []),
        ]
    }

    @Test("Every stored session becomes a shopper with one client; its cart, name, preferences, searches and orders stay, and its cookie still works", arguments: StoreBackend.allCases)
    func sessionsBecomeShoppers(backend: StoreBackend) throws {
        let location = try backend.makeLocation()
        let first = try location.open()
        let secret = try first.sessionSecret()
        first.close()
        let token = SessionToken.issue(at: 150)
        let id = SHA256.hexDigest(of: token.id)
        switch backend {
        case .sqlite:
            let db = try Database(path: location.database)
            try db.execute(sql: "PRAGMA user_version = 9;" + Self.sqliteBeforeShoppers)
            for (sql, arguments) in Self.oldRows(id, placeholder: { ["", "?", ""][$0] }) {
                try db.execute(sql, StatementArguments(arguments.map { .text($0) }))
            }
            db.close()
        case .postgres:
            let connection = try PostgresConnection(connectionString: location.database)
            defer { connection.close() }
            try connection.execute(sql: "ALTER TABLE cart_items DROP COLUMN change_key;" + Self.beforeJoinCodes + """
                DROP TABLE clients;
                ALTER TABLE shoppers RENAME TO sessions;
                ALTER TABLE cart_items RENAME COLUMN shopper_id TO session_id;
                ALTER TABLE recent_searches RENAME COLUMN shopper_id TO session_id;
                ALTER TABLE orders RENAME COLUMN shopper_id TO session_id;
                ALTER TABLE sessions ADD COLUMN first_live_key text;
                DELETE FROM schema_migrations WHERE name IN ('v5-shoppers', 'v6-join-codes', 'v7-order-states', 'v8-order-intents', 'v9-checkout', 'v10-change-keys');
                """)
            for (sql, arguments) in Self.oldRows(id, placeholder: { [", live_key", "$1", ", 'old-key'"][$0] }) {
                if arguments.isEmpty { try connection.execute(sql: sql) } else { try connection.execute(sql, arguments[0]) }
            }
        }

        let storage = try location.open()
        defer { storage.close() }
        guard case .active(let stored) = try storage.sessions.session(clientID: id) else {
            Issue.record("\(backend): the session is not a client in use after the migration")
            return
        }
        #expect(stored.displayName == "Dana" && stored.preferences.theme == .dark && stored.cartVersion == 7 && stored.createdAt == 100)
        #expect(stored.cart.items.map(\.product.id) == [3, 1] && stored.cart.items.map(\.quantity) == [2, 4])
        #expect(stored.newestSearch == "tent")
        #expect(stored.shopperLiveKey == SessionManager.liveKey(ofShopper: stored.shopperID, secret: secret))
        #expect(try storage.sessions.devices(ofShopper: stored.shopperID).map(\.clientID) == [id], "one client per shopper")

        // The cookie that reached the session reaches the shopper: nothing is lost.
        let manager = SessionManager(store: storage.sessions, secret: secret, liveCatalog: storage.liveCatalog, idleLifetime: 3600, secureCookies: false)
        let request = Request(method: .get, path: "/", headers: ["Cookie": "\(SessionManager.cookieName)=\(token.cookieValue(key: HMACKey(secret)))"])
        let session = try manager.resolve(request, at: 300).session
        #expect(session.isStored && session.displayName == "Dana" && session.shopperID == stored.shopperID)
        #expect(try storage.orders.orders(for: session).map(\.id) == [41])
        #expect(try storage.orders.orders(for: session).first?.history == [OrderStateChange(state: .placed, at: 150)], "an order placed before order states is placed at its placing time")
        #expect(try storage.searches.recentSearches(for: session) == ["tent"])
    }
}
