import SQLite

/// The SQLite database's shape, as ordered migrations. A shipped migration is never edited or
/// renamed: add a new one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-create-tables") { db in
            try db.execute(sql: """
                CREATE TABLE products (
                    id INTEGER PRIMARY KEY,
                    slug TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    category TEXT NOT NULL,
                    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
                    icon TEXT NOT NULL,
                    featured INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    created_at INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    display_name TEXT NOT NULL,
                    cart_version INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                CREATE INDEX sessions_by_last_seen ON sessions (last_seen);
                CREATE TABLE cart_items (
                    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                    product_id INTEGER NOT NULL REFERENCES products (id),
                    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
                    added_at INTEGER NOT NULL,
                    PRIMARY KEY (session_id, product_id)
                ) WITHOUT ROWID;
                CREATE TABLE recent_searches (
                    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                    query TEXT NOT NULL,
                    searched_at INTEGER NOT NULL,
                    PRIMARY KEY (session_id, query)
                ) WITHOUT ROWID;
                -- Orders are records of sales: they outlive the session that placed them.
                CREATE TABLE orders (
                    id INTEGER PRIMARY KEY,
                    session_id TEXT NOT NULL,
                    placed_at INTEGER NOT NULL
                );
                CREATE INDEX orders_by_session ON orders (session_id, id);
                CREATE TABLE order_lines (
                    order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    product_id INTEGER,
                    name TEXT NOT NULL,
                    unit_price_cents INTEGER NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (order_id, position)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2-seed-catalog") { db in
            for (index, product) in CatalogSeed.products.enumerated() {
                try db.execute(
                    "INSERT INTO products (id, slug, name, summary, category, price_cents, icon, featured) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [Int64(index + 1), product.slug, product.name, product.summary, product.category, product.priceCents, product.icon, product.featured]
                )
            }
        }
        migrator.registerMigration("v3-session-secret") { db in
            var generator = SystemRandomNumberGenerator()
            let secret = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            try db.execute("INSERT INTO settings (key, value) VALUES ('session-secret', ?)", [Hex.encode(secret)])
        }
        migrator.registerMigration("v4-session-preferences") { db in
            try db.execute(sql: """
                ALTER TABLE sessions ADD COLUMN theme TEXT NOT NULL DEFAULT 'system';
                ALTER TABLE sessions ADD COLUMN tab_order TEXT NOT NULL DEFAULT '';
                ALTER TABLE sessions ADD COLUMN sidebar INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sessions ADD COLUMN notifications INTEGER NOT NULL DEFAULT 1;
                """)
        }
        migrator.registerMigration("v5-cart-items-in-order") { db in
            // Every page reads its cart in the order items were added: with this index (which
            // carries the key's product_id too) that needs no sort. Quantity stays out of it,
            // so a quantity change still writes one page of cart_items and nothing else.
            try db.execute(sql: "CREATE INDEX cart_items_in_order ON cart_items (session_id, added_at);")
        }
        migrator.registerMigration("v6-hashed-session-ids") { db in
            // Sessions are known by the SHA-256 of their cookie's id from now on (Session.storageID):
            // the ids stored so far become their hashes wherever they appear, so a leaked file
            // hands out no live session. Foreign keys are checked at commit, once sessions and
            // their rows agree again; secure_delete zeroes the cells that held the old ids.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON; PRAGMA secure_delete = ON;")
            let ids = try db.fetchAll(
                """
                SELECT id FROM sessions UNION SELECT session_id FROM cart_items
                UNION SELECT session_id FROM recent_searches UNION SELECT session_id FROM orders
                """
            ) { try $0.string(0) }
            for id in ids {
                let hashed = SHA256.hexDigest(of: id)
                try db.execute("UPDATE sessions SET id = ? WHERE id = ?", [hashed, id])
                try db.execute("UPDATE cart_items SET session_id = ? WHERE session_id = ?", [hashed, id])
                try db.execute("UPDATE recent_searches SET session_id = ? WHERE session_id = ?", [hashed, id])
                try db.execute("UPDATE orders SET session_id = ? WHERE session_id = ?", [hashed, id])
            }
        }
        migrator.registerMigration("v7-importable-catalog") { db in
            // Imports (`quickcart catalog import`) deactivate products instead of deleting them,
            // order the catalog by the file, and may give a product a photo. The catalog's
            // version and origin go into `settings` with the first import.
            try db.execute(sql: """
                ALTER TABLE products ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE products ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE products ADD COLUMN image_file TEXT;
                ALTER TABLE products ADD COLUMN image_key TEXT;
                ALTER TABLE products ADD COLUMN image_width INTEGER;
                ALTER TABLE products ADD COLUMN image_height INTEGER;
                UPDATE products SET position = id;
                """)
        }
        migrator.registerMigration("v8-product-search") { db in
            // Search by FTS5 with porter stemming ("tents" finds the tent), ranked by bm25().
            // The triggers keep the index in step, so whatever writes products (an import)
            // leaves them searchable.
            try db.execute(sql: productTextIndex("search", tokenize: "porter unicode61 remove_diacritics 2"))
        }
        migrator.registerMigration("v9-recent-searches-newest") { db in
            // Every page reads the session's newest search with the session (the Search tab's
            // place), and Search reads its newest five: in this order they need no sort. Without
            // it SQLite built a temporary B-tree per page read, a quarter of that read's work.
            try db.execute(sql: "CREATE INDEX recent_searches_newest ON recent_searches (session_id, searched_at DESC, query);")
        }
        migrator.registerMigration("v10-shoppers") { db in
            // A session becomes a shopper (cart, orders, name, preferences, searches) with one
            // client (the browser), both under the session's id, so every cookie in use keeps
            // working. The tables keep their rows; the references follow the renames. A client
            // signed out stays as a mark (spent_at, no shopper), so its ids never come back.
            try db.execute(sql: """
                ALTER TABLE sessions RENAME TO shoppers;
                ALTER TABLE cart_items RENAME COLUMN session_id TO shopper_id;
                ALTER TABLE recent_searches RENAME COLUMN session_id TO shopper_id;
                ALTER TABLE orders RENAME COLUMN session_id TO shopper_id;
                ALTER TABLE shoppers ADD COLUMN live_key TEXT NOT NULL DEFAULT '';
                CREATE TABLE clients (
                    id TEXT PRIMARY KEY,
                    shopper_id TEXT REFERENCES shoppers (id) ON DELETE SET NULL,
                    created_at INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    device TEXT NOT NULL DEFAULT '',
                    spent_at INTEGER
                ) WITHOUT ROWID;
                CREATE INDEX clients_of_shopper ON clients (shopper_id);
                CREATE INDEX clients_by_last_seen ON clients (last_seen);
                INSERT INTO clients (id, shopper_id, created_at, last_seen) SELECT id, id, created_at, last_seen FROM shoppers;
                """)
            try ShopperLiveKeys.fill(
                secretHex: try db.fetchValue("SELECT value FROM settings WHERE key = 'session-secret'", as: String.self),
                shopperIDs: try db.fetchAll("SELECT id FROM shoppers") { try $0.string(0) }
            ) { id, liveKey in
                try db.execute("UPDATE shoppers SET live_key = ? WHERE id = ?", [liveKey, id])
            }
        }
        migrator.registerMigration("v11-product-words") { db in
            // The words as written, unstemmed, for the last word being typed: porter indexes
            // "running" as "run", so "runn" is the start of no word in `product_search`; here
            // it is the start of "running". The same external content and triggers as v8.
            try db.execute(sql: productTextIndex("words", tokenize: "unicode61 remove_diacritics 2"))
        }
        migrator.registerMigration("v12-join-codes") { db in
            // "Continue on another device": each code is known by a keyed hash of it; the nonce
            // is what the showing client's page derives it from again, with the shop's secret.
            try db.execute(sql: """
                CREATE TABLE join_codes (
                    code_hash TEXT PRIMARY KEY,
                    nonce TEXT NOT NULL,
                    shopper_id TEXT NOT NULL REFERENCES shoppers (id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    wrong_tries INTEGER NOT NULL DEFAULT 0,
                    used_at INTEGER
                ) WITHOUT ROWID;
                CREATE INDEX join_codes_of_client ON join_codes (client_id, created_at);
                CREATE INDEX join_codes_by_expiry ON join_codes (expires_at);
                """)
        }
        migrator.registerMigration("v13-order-states") { db in
            // An order's life, one row per move (its placing first), ids in commit order so
            // `orders export --follow` follows moves as it follows orders. Orders placed before
            // this were placed at their placing time and have not moved since.
            try db.execute(sql: """
                CREATE TABLE order_states (
                    id INTEGER PRIMARY KEY,
                    order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
                    state TEXT NOT NULL CHECK (state IN ('placed', 'paid', 'shipped', 'delivered', 'cancelled')),
                    at INTEGER NOT NULL,
                    carrier TEXT,
                    tracking_url TEXT,
                    reason TEXT
                );
                CREATE INDEX order_states_of_order ON order_states (order_id, id);
                INSERT INTO order_states (order_id, state, at) SELECT id, 'placed', placed_at FROM orders ORDER BY id;
                """)
        }
        migrator.registerMigration("v14-order-intents") { db in
            // One order per intent (a Review page's cart version, a client's Idempotency-Key):
            // the index makes a second order for the same intent of a shopper impossible.
            // Orders placed before this have none.
            try db.execute(sql: """
                ALTER TABLE orders ADD COLUMN intent TEXT;
                CREATE UNIQUE INDEX orders_by_intent ON orders (shopper_id, intent) WHERE intent IS NOT NULL;
                """)
        }
        migrator.registerMigration("v15-checkout") { db in
            // Checkout asks who and where: the shop's delivery methods (the demo's until the
            // shop imports its own), each shopper's saved details (one row; its version is the
            // time of saving in milliseconds, so a Review page can tell they changed even after a
            // delete), and each order's copy of them. Orders placed
            // before this have none (their columns stay NULL).
            try db.execute(sql: """
                CREATE TABLE delivery_methods (
                    code TEXT PRIMARY KEY,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
                    countries TEXT NOT NULL,
                    free_from_cents INTEGER,
                    payment TEXT NOT NULL CHECK (payment IN ('bank-transfer', 'on-delivery', 'in-store')),
                    payment_details TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE delivery_details (
                    shopper_id TEXT PRIMARY KEY REFERENCES shoppers (id) ON DELETE CASCADE,
                    version INTEGER NOT NULL,
                    saved_at INTEGER NOT NULL,
                    name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL,
                    address_line1 TEXT NOT NULL, address_line2 TEXT NOT NULL, city TEXT NOT NULL, region TEXT NOT NULL,
                    postal_code TEXT NOT NULL, country TEXT NOT NULL, method TEXT NOT NULL
                ) WITHOUT ROWID;
                ALTER TABLE orders ADD COLUMN contact_name TEXT;
                ALTER TABLE orders ADD COLUMN email TEXT;
                ALTER TABLE orders ADD COLUMN phone TEXT;
                ALTER TABLE orders ADD COLUMN address_line1 TEXT;
                ALTER TABLE orders ADD COLUMN address_line2 TEXT;
                ALTER TABLE orders ADD COLUMN city TEXT;
                ALTER TABLE orders ADD COLUMN region TEXT;
                ALTER TABLE orders ADD COLUMN postal_code TEXT;
                ALTER TABLE orders ADD COLUMN country TEXT;
                ALTER TABLE orders ADD COLUMN delivery_method TEXT;
                ALTER TABLE orders ADD COLUMN delivery_name TEXT;
                ALTER TABLE orders ADD COLUMN delivery_cents INTEGER;
                ALTER TABLE orders ADD COLUMN payment TEXT;
                ALTER TABLE orders ADD COLUMN payment_details TEXT;
                """)
            try SQLiteDeliveryMethodStore.insert(DeliverySeed.methods, into: db)
        }
        migrator.registerMigration("v16-line-versions") { db in
            // A cart's version is the greatest of its shopper's `cart_version` and its lines'
            // `version`s: a change stamps the line it writes with the new version, so a quantity
            // change writes one page (the line's) instead of two (with the shopper's), about a
            // tenth more posts a second. Only a change that leaves no line carrying it (a remove,
            // a checkout, a join) raises `cart_version`. Lines stored so far are at 0, so every
            // cart keeps its version.
            try db.execute(sql: "ALTER TABLE cart_items ADD COLUMN version INTEGER NOT NULL DEFAULT 0;")
        }
        migrator.registerMigration("v17-newest-search") { db in
            // Every page shows the shopper's newest search (the Search tab's link). Kept on the
            // shopper's row, a page's read is one join of client, shopper and cart lines, with
            // no search of recent_searches: about 2,000 instructions less a GET /cart. Triggers
            // keep it in step with every write of recent_searches (a search, its trimming to
            // five, clearing, a join's merge), as they keep the product text indexes.
            let newest = { (shopper: String) in
                "(SELECT query FROM recent_searches r WHERE r.shopper_id = \(shopper) ORDER BY r.searched_at DESC, r.query LIMIT 1)"
            }
            let follow = { (row: String) in
                "UPDATE shoppers SET newest_search = \(newest("\(row).shopper_id")) WHERE id = \(row).shopper_id;"
            }
            try db.execute(sql: """
                ALTER TABLE shoppers ADD COLUMN newest_search TEXT;
                CREATE TRIGGER recent_searches_insert AFTER INSERT ON recent_searches BEGIN \(follow("new")) END;
                CREATE TRIGGER recent_searches_update AFTER UPDATE ON recent_searches BEGIN \(follow("new")) END;
                CREATE TRIGGER recent_searches_delete AFTER DELETE ON recent_searches BEGIN \(follow("old")) END;
                UPDATE shoppers SET newest_search = \(newest("shoppers.id"));
                """)
        }
        migrator.registerMigration("v18-change-keys") { db in
            // The page script names each press of a line's change (add, a stepper) with a
            // random key, kept on the line it writes; a post carrying the key its line holds
            // (a browser's resend of a post whose answer was lost) changes nothing. On the line,
            // not the shopper, so a change still writes one page. Lines stored so far have none.
            try db.execute(sql: "ALTER TABLE cart_items ADD COLUMN change_key TEXT;")
        }
        return migrator
    }

    /// An FTS5 index, `product_NAME`, of the products' name, summary and category that holds
    /// no copy of the text (external content, read from `products`), kept in step by triggers
    /// (`products_NAME_insert`, `_delete`, `_update`) with every insert, delete and change of a
    /// product's words, and built from the products there now. Migrations v8 and v11 ran it:
    /// what it writes never changes.
    private static func productTextIndex(_ name: String, tokenize: String) -> String {
        """
        CREATE VIRTUAL TABLE product_\(name) USING fts5(
            name, summary, category,
            content = 'products', content_rowid = 'id',
            tokenize = '\(tokenize)'
        );
        CREATE TRIGGER products_\(name)_insert AFTER INSERT ON products BEGIN
            INSERT INTO product_\(name) (rowid, name, summary, category)
            VALUES (new.id, new.name, new.summary, new.category);
        END;
        CREATE TRIGGER products_\(name)_delete AFTER DELETE ON products BEGIN
            INSERT INTO product_\(name) (product_\(name), rowid, name, summary, category)
            VALUES ('delete', old.id, old.name, old.summary, old.category);
        END;
        CREATE TRIGGER products_\(name)_update AFTER UPDATE OF name, summary, category ON products BEGIN
            INSERT INTO product_\(name) (product_\(name), rowid, name, summary, category)
            VALUES ('delete', old.id, old.name, old.summary, old.category);
            INSERT INTO product_\(name) (rowid, name, summary, category)
            VALUES (new.id, new.name, new.summary, new.category);
        END;
        INSERT INTO product_\(name) (product_\(name)) VALUES ('rebuild');
        """
    }
}
