import Postgres

/// The PostgreSQL database's shape, as ordered migrations: the same tables and rules as the
/// SQLite schema, plus each session's live keys (for resending counts after the listener
/// reconnects). Instances starting together migrate once, under the migrator's advisory lock.
/// A shipped migration is never edited or renamed: add a new one.
enum PostgresSchema {
    /// The migrator's advisory lock key, "QCMIGRAT" in ASCII; never change it, or instances
    /// of two versions would migrate at once.
    static let migrationLockKey: Int64 = 0x5143_4D49_4752_4154

    static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator(lockKey: migrationLockKey)
        migrator.registerMigration("v1-create-tables") { connection in
            try connection.execute(sql: """
                CREATE TABLE products (
                    id bigint PRIMARY KEY,
                    slug text NOT NULL UNIQUE,
                    name text NOT NULL,
                    summary text NOT NULL,
                    category text NOT NULL,
                    price_cents bigint NOT NULL CHECK (price_cents >= 0),
                    icon text NOT NULL,
                    featured boolean NOT NULL DEFAULT false
                );
                CREATE TABLE settings (
                    key text PRIMARY KEY,
                    value text NOT NULL
                );
                CREATE TABLE sessions (
                    id text PRIMARY KEY,
                    created_at bigint NOT NULL,
                    last_seen bigint NOT NULL,
                    display_name text NOT NULL,
                    cart_version bigint NOT NULL DEFAULT 0,
                    theme text NOT NULL DEFAULT 'system',
                    tab_order text NOT NULL DEFAULT '',
                    sidebar boolean NOT NULL DEFAULT false,
                    notifications boolean NOT NULL DEFAULT true,
                    live_key text NOT NULL,
                    -- The live key of the cookie whose change stored the session under a new
                    -- id, when it differs: streams opened under it follow the session.
                    first_live_key text
                );
                CREATE INDEX sessions_by_last_seen ON sessions (last_seen);
                -- After the listener reconnects, the counts of the sessions with open streams
                -- are read by their live keys.
                CREATE INDEX sessions_by_live_key ON sessions (live_key);
                CREATE INDEX sessions_by_first_live_key ON sessions (first_live_key);
                CREATE TABLE cart_items (
                    session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                    product_id bigint NOT NULL REFERENCES products (id),
                    quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 10),
                    added_at bigint NOT NULL,
                    PRIMARY KEY (session_id, product_id)
                );
                CREATE INDEX cart_items_in_order ON cart_items (session_id, added_at, product_id);
                CREATE TABLE recent_searches (
                    session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                    query text NOT NULL,
                    searched_at bigint NOT NULL,
                    PRIMARY KEY (session_id, query)
                );
                -- Orders are records of sales: they outlive the session that placed them.
                CREATE TABLE orders (
                    id bigserial PRIMARY KEY,
                    session_id text NOT NULL,
                    placed_at bigint NOT NULL
                );
                CREATE INDEX orders_by_session ON orders (session_id, id);
                CREATE TABLE order_lines (
                    order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
                    position integer NOT NULL,
                    product_id bigint,
                    name text NOT NULL,
                    unit_price_cents bigint NOT NULL,
                    quantity integer NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (order_id, position)
                );
                """)
        }
        migrator.registerMigration("v2-seed-catalog") { connection in
            for (index, product) in CatalogSeed.products.enumerated() {
                try connection.execute(
                    "INSERT INTO products (id, slug, name, summary, category, price_cents, icon, featured) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    Int64(index + 1), product.slug, product.name, product.summary, product.category, product.priceCents, product.icon, product.featured
                )
            }
        }
        migrator.registerMigration("v3-importable-catalog") { connection in
            // Imports (`quickcart catalog import`) deactivate products instead of deleting them,
            // order the catalog by the file, may give a product a photo, and add products,
            // which take their ids from a sequence. The catalog's version and origin go into
            // `settings` with the first import.
            try connection.execute(sql: """
                ALTER TABLE products ADD COLUMN active boolean NOT NULL DEFAULT true;
                ALTER TABLE products ADD COLUMN position bigint NOT NULL DEFAULT 0;
                ALTER TABLE products ADD COLUMN image_file text;
                ALTER TABLE products ADD COLUMN image_key text;
                ALTER TABLE products ADD COLUMN image_width integer;
                ALTER TABLE products ADD COLUMN image_height integer;
                UPDATE products SET position = id;
                CREATE SEQUENCE products_id_seq OWNED BY products.id;
                SELECT setval('products_id_seq', greatest((SELECT max(id) FROM products), 1));
                ALTER TABLE products ALTER COLUMN id SET DEFAULT nextval('products_id_seq');
                """)
        }
        migrator.registerMigration("v4-product-search") { connection in
            // Search by the English text-search configuration (stemming: "tents" finds the
            // tent), ranked by ts_rank. The document is a generated column, so whatever writes
            // products leaves them searchable; the name weighs most, then category, then summary.
            // The words as written (`simple`: no stemming, no stop words) come along at the
            // lowest weight, for the start of a common word being typed ("a" for "aluminium"),
            // as SQLite's index holds every word.
            try connection.execute(sql: """
                ALTER TABLE products ADD COLUMN search_document tsvector GENERATED ALWAYS AS (
                    setweight(to_tsvector('english', name), 'A')
                    || setweight(to_tsvector('english', category), 'B')
                    || setweight(to_tsvector('english', summary), 'C')
                    || setweight(to_tsvector('simple', name || ' ' || category || ' ' || summary), 'D')
                ) STORED;
                CREATE INDEX products_search ON products USING gin (search_document);
                """)
        }
        migrator.registerMigration("v5-shoppers") { connection in
            // A session becomes a shopper (cart, orders, name, preferences, searches) with one
            // client (the browser), both under the session's id, so every cookie in use keeps
            // working. A client signed out stays as a mark (spent_at, no shopper), so its ids
            // never come back. Streams follow shoppers now, by a live key of the shopper's id
            // (computed below, as SessionManager does for new shoppers).
            try connection.execute(sql: """
                ALTER TABLE sessions RENAME TO shoppers;
                ALTER TABLE cart_items RENAME COLUMN session_id TO shopper_id;
                ALTER TABLE recent_searches RENAME COLUMN session_id TO shopper_id;
                ALTER TABLE orders RENAME COLUMN session_id TO shopper_id;
                ALTER TABLE shoppers DROP COLUMN first_live_key;
                CREATE TABLE clients (
                    id text PRIMARY KEY,
                    shopper_id text REFERENCES shoppers (id) ON DELETE SET NULL,
                    created_at bigint NOT NULL,
                    last_seen bigint NOT NULL,
                    device text NOT NULL DEFAULT '',
                    spent_at bigint
                );
                CREATE INDEX clients_of_shopper ON clients (shopper_id);
                CREATE INDEX clients_by_last_seen ON clients (last_seen);
                INSERT INTO clients (id, shopper_id, created_at, last_seen) SELECT id, id, created_at, last_seen FROM shoppers;
                """)
            try ShopperLiveKeys.fill(
                secretHex: try connection.fetchValue("SELECT value FROM settings WHERE key = 'session-secret'", as: String.self),
                shopperIDs: try connection.fetchAll("SELECT id FROM shoppers") { try $0.string(0) }
            ) { id, liveKey in
                try connection.execute("UPDATE shoppers SET live_key = $1 WHERE id = $2", liveKey, id)
            }
        }
        migrator.registerMigration("v6-join-codes") { connection in
            // "Continue on another device": each code is known by a keyed hash of it; the nonce
            // is what the showing client's page derives it from again, with the shop's secret.
            try connection.execute(sql: """
                CREATE TABLE join_codes (
                    code_hash text PRIMARY KEY,
                    nonce text NOT NULL,
                    shopper_id text NOT NULL REFERENCES shoppers (id) ON DELETE CASCADE,
                    client_id text NOT NULL,
                    created_at bigint NOT NULL,
                    expires_at bigint NOT NULL,
                    wrong_tries integer NOT NULL DEFAULT 0,
                    used_at bigint
                );
                CREATE INDEX join_codes_of_client ON join_codes (client_id, created_at);
                CREATE INDEX join_codes_by_expiry ON join_codes (expires_at);
                """)
        }
        migrator.registerMigration("v7-order-states") { connection in
            // An order's life, one row per move (its placing first). Moves take their ids under
            // the orders' advisory lock, so ids commit in order and `orders export --follow`
            // follows moves as it follows orders. Orders placed before this were placed at their
            // placing time and have not moved since.
            try connection.execute(sql: """
                CREATE TABLE order_states (
                    id bigserial PRIMARY KEY,
                    order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
                    state text NOT NULL CHECK (state IN ('placed', 'paid', 'shipped', 'delivered', 'cancelled')),
                    at bigint NOT NULL,
                    carrier text,
                    tracking_url text,
                    reason text
                );
                CREATE INDEX order_states_of_order ON order_states (order_id, id);
                INSERT INTO order_states (order_id, state, at) SELECT id, 'placed', placed_at FROM orders ORDER BY id;
                """)
        }
        migrator.registerMigration("v8-order-intents") { connection in
            // One order per intent (a Review page's cart version, a client's Idempotency-Key):
            // the index makes a second order for the same intent of a shopper impossible.
            // Orders placed before this have none.
            try connection.execute(sql: """
                ALTER TABLE orders ADD COLUMN intent text;
                CREATE UNIQUE INDEX orders_by_intent ON orders (shopper_id, intent) WHERE intent IS NOT NULL;
                """)
        }
        migrator.registerMigration("v9-checkout") { connection in
            // Checkout asks who and where: the shop's delivery methods (the demo's until the
            // shop imports its own), each shopper's saved details (one row; its version is the
            // time of saving in milliseconds, so a Review page can tell they changed even after a
            // delete), and each order's copy of them. Orders placed
            // before this have none (their columns stay NULL).
            try connection.execute(sql: """
                CREATE TABLE delivery_methods (
                    code text PRIMARY KEY,
                    position integer NOT NULL,
                    name text NOT NULL,
                    price_cents bigint NOT NULL CHECK (price_cents >= 0),
                    countries text NOT NULL,
                    free_from_cents bigint,
                    payment text NOT NULL CHECK (payment IN ('bank-transfer', 'on-delivery', 'in-store')),
                    payment_details text NOT NULL
                );
                CREATE TABLE delivery_details (
                    shopper_id text PRIMARY KEY REFERENCES shoppers (id) ON DELETE CASCADE,
                    version bigint NOT NULL,
                    saved_at bigint NOT NULL,
                    name text NOT NULL, email text NOT NULL, phone text NOT NULL,
                    address_line1 text NOT NULL, address_line2 text NOT NULL, city text NOT NULL, region text NOT NULL,
                    postal_code text NOT NULL, country text NOT NULL, method text NOT NULL
                );
                ALTER TABLE orders ADD COLUMN contact_name text;
                ALTER TABLE orders ADD COLUMN email text;
                ALTER TABLE orders ADD COLUMN phone text;
                ALTER TABLE orders ADD COLUMN address_line1 text;
                ALTER TABLE orders ADD COLUMN address_line2 text;
                ALTER TABLE orders ADD COLUMN city text;
                ALTER TABLE orders ADD COLUMN region text;
                ALTER TABLE orders ADD COLUMN postal_code text;
                ALTER TABLE orders ADD COLUMN country text;
                ALTER TABLE orders ADD COLUMN delivery_method text;
                ALTER TABLE orders ADD COLUMN delivery_name text;
                ALTER TABLE orders ADD COLUMN delivery_cents bigint;
                ALTER TABLE orders ADD COLUMN payment text;
                ALTER TABLE orders ADD COLUMN payment_details text;
                """)
            try PostgresDeliveryMethodStore.insert(DeliverySeed.methods, into: connection)
        }
        migrator.registerMigration("v10-change-keys") { connection in
            // The page script names each press of a line's change (add, a stepper) with a
            // random key, kept on the line it writes; a post carrying the key its line holds
            // (a browser's resend of a post whose answer was lost) changes nothing. Lines
            // stored so far have none.
            try connection.execute(sql: "ALTER TABLE cart_items ADD COLUMN change_key text;")
        }
        return migrator
    }
}
