import Foundation
import HTTPTesting
@testable import QuickCart
import SQLite
import Testing

extension ShopTests {
    /// What a stranger can make the shop do for free, and what a leaked file or a planted
    /// cookie gives away: nothing.
    @Suite("Abuse")
    struct AbuseTests {
        private static func count(_ table: String, in shop: TestShop) throws -> Int {
            let db = try Database(path: shop.directory.path + "/quickcart.sqlite")
            return try db.fetchValue("SELECT count(*) FROM \(table)", as: Int.self) ?? -1
        }

        private static func rows(in shop: TestShop) throws -> [String: Int] {
            var counts: [String: Int] = [:]
            for table in ["shoppers", "clients", "cart_items", "recent_searches", "orders"] { counts[table] = try count(table, in: shop) }
            return counts
        }

        private static let noRows = ["shoppers": 0, "clients": 0, "cart_items": 0, "recent_searches": 0, "orders": 0]

        /// The id part of a session cookie's value.
        private static func id(of cookie: String) -> String {
            String(cookie.prefix { $0 != "." })
        }

        // MARK: - Finding 1: reading costs nothing

        @Test("500 cookie-less page, search (Home's category links too), cart, profile and stream requests leave no rows")
        func cookielessReadingWritesNothing() throws {
            let shop = try TestShop()
            let home = try shop.browser().get("/")
            let categoryLinks = home.html.elements("a").compactMap { $0["href"] }.filter { $0.hasPrefix("/search?q=") }
            try #require(!categoryLinks.isEmpty, "Home shows no category links")
            let targets = ["/", "/cart", "/profile", "/events", "/search?q=tent", "/search?q=Running+shoes"] + categoryLinks
            for index in 0..<500 {
                let target = targets[index % targets.count]
                let answer = try shop.client(timeout: 5).get(target)
                #expect(answer.status == (target == "/events" ? 403 : 200), "\(target): \(answer.status)")
            }
            #expect(try Self.rows(in: shop) == Self.noRows)
            #expect(shop.app.hub.totalStreamCount == 0)
        }

        @Test("A session that has changed nothing searches without being stored, and still sees its searches; they are stored with it")
        func searchingStoresNoSession() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            _ = try browser.get("/")
            for query in ["tent", "shoes", "Camping"] { #expect(try browser.search(query).status == 200) }
            #expect(try Self.rows(in: shop) == Self.noRows)
            #expect(try Self.recent(on: browser.get("/search")) == ["Camping", "shoes", "tent"], "kept in their cookie until the session is stored")
            #expect(try Self.recent(on: shop.browser().get("/search")).isEmpty, "another session sees none of them")
            #expect(try browser.post("/profile/name", form: [("display_name", "Ada")]).status == 303)
            #expect(try browser.search("Tent").status == 200)
            #expect(try Self.count("recent_searches", in: shop) == 3, "the waiting searches moved into storage with the next one")
            #expect(try Self.recent(on: browser.get("/search")) == ["Tent", "Camping", "shoes"])
        }

        /// The texts of the page's Recent links, in order.
        private static func recent(on page: Page) throws -> [String] {
            let html = page.html
            guard let heading = html.first(where: { html.text(of: $0) == "Recent" && $0.name.hasPrefix("h") }) else { return [] }
            let section = try #require(html.enclosing("section", of: heading))
            return html.elements("a", in: section).map { html.text(of: $0) }
        }

        // MARK: - Finding 2: streams only for sessions the server issued

        @Test("/events without a session cookie the server issued is 403 and opens nothing", arguments: [
            [],
            [("Cookie", "quickcart_session=forged.1.0123456789abcdef0123456789abcdef")],
        ])
        func eventsNeedAnIssuedSession(headers: [(String, String)]) throws {
            let shop = try TestShop()
            let stream = try TestEventStreamClient(port: shop.port, headers: headers)
            #expect(stream.status == 403)
            #expect(stream.contentType?.hasPrefix("text/html") == true, "a readable page, not a stream: \(stream.contentType ?? "none")")
            #expect(shop.app.hub.totalStreamCount == 0)
            let browser = shop.browser()
            _ = try browser.get("/")
            #expect(try browser.eventStream().status == 200, "a page's cookie opens the stream")
        }

        // MARK: - Finding 3: limits in bytes

        @Test("A display name of one character with 9,000 combining accents is refused with 400; nothing is stored")
        func displayNameBytesAreLimited() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let heavy = "a" + String(repeating: "\u{301}", count: 9_000)
            #expect(heavy.count == 1)
            let answer = try browser.post("/profile/name", form: [("display_name", heavy)])
            #expect(answer.status == 400, "\(answer.summary)")
            #expect(try Self.rows(in: shop) == Self.noRows)
            // Forty two-byte characters fit.
            let accented = String(repeating: "é", count: 40)
            #expect(try browser.post("/profile/name", form: [("display_name", accented)]).status == 303)
            #expect(try browser.get("/profile").text.contains(accented))
            #expect(try browser.post("/profile/name", form: [("display_name", accented + "é")]).status == 400)
        }

        @Test("A display name drawn as nothing (invisible characters only) is refused with 400 like an empty one; nothing is stored")
        func invisibleDisplayNames() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            for name in ["\u{FEFF}", "\u{2060}", "\u{3164}", "\u{AD}", "\u{180E}", "\u{34F}", " \u{FEFF}\u{2060} "] {
                let answer = try browser.post("/profile/name", form: [("display_name", name)])
                #expect(answer.status == 400 && answer.text.contains("Please enter a display name."), "\(name.unicodeScalars.map(\.value)): \(answer.summary)")
            }
            #expect(try Self.rows(in: shop) == Self.noRows)
            #expect(try browser.post("/profile/name", form: [("display_name", "Ann\u{AD}e")]).status == 303, "a soft hyphen inside a name is fine")
        }

        @Test("A search of combining accents past the byte limit is refused with 400 and not remembered")
        func searchBytesAreLimited() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            #expect(try browser.post("/profile/theme", form: [("theme", "dark")]).status == 303)
            let heavy = "a" + String(repeating: "\u{301}", count: 460)
            let answer = try browser.search(heavy)
            #expect(answer.status == 400, "\(answer.summary)")
            #expect(answer.response.headers(named: "Set-Cookie").allSatisfy { !$0.contains("%CC%81") && !$0.contains("\u{301}") })
            #expect(try Self.count("recent_searches", in: shop) == 0)
            #expect(SearchController.queryLimit.admits(String(repeating: "ü", count: 100)))
        }

        // MARK: - Finding 6: the file is private, and holds no session id

        @Test("The database file and its -wal and -shm are created 0600")
        func databaseFileIsPrivate() throws {
            let previous = umask(0o022)
            defer { umask(previous) }
            let shop = try TestShop()
            let browser = shop.browser()
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            let file = shop.directory.path + "/quickcart.sqlite"
            for path in [file, file + "-wal", file + "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
                #expect(mode == 0o600, "\(path): mode \(String(mode, radix: 8))")
            }
        }

        @Test("Once stored, a session's ids (the first cookie's and the stored one's) appear nowhere in the database files")
        func sessionIDsAreStoredHashed() throws {
            let shop = try TestShop()
            let (browser, cookie) = try shop.visitor()
            let first = Self.id(of: cookie)
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            let stored = Self.id(of: try #require(browser.sessionCookie))
            #expect(try browser.post("/profile/name", form: [("display_name", "Ada")]).status == 303)
            _ = try browser.search("tent")
            #expect(try browser.placeOrder().status == 303)
            let db = try Database(path: shop.directory.path + "/quickcart.sqlite")
            #expect(try db.fetchValue("SELECT id FROM clients", as: String.self) == SHA256.hexDigest(of: stored))
            // The order belongs to the shopper, not to an id a cookie carries.
            let shopper = try db.fetchValue("SELECT shopper_id FROM clients", as: String.self)
            #expect(shopper != nil && shopper != SHA256.hexDigest(of: stored))
            #expect(try db.fetchValue("SELECT shopper_id FROM orders", as: String.self) == shopper)
            let file = shop.directory.path + "/quickcart.sqlite"
            for path in [file, file + "-wal"] {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                for id in [first, stored] {
                    #expect(bytes.range(of: Data(id.utf8)) == nil, "\(path) holds the session id \(id.prefix(8))…")
                    #expect(bytes.range(of: Data(id.uppercased().utf8)) == nil)
                }
            }
        }

        @Test("Upgrading hashes the ids already stored, in sessions, carts, searches and orders; their cookies keep working")
        func migrationHashesStoredIDs() throws {
            let location = try StoreBackend.sqlite.makeLocation()
            try location.open().close()
            let id = String(repeating: "ab", count: 20)
            do {
                // The shape and rows of a database written before ids were hashed.
                let db = try Database(path: location.database)
                try db.execute(sql: "PRAGMA user_version = 5;" + ShopperMigrationTests.sqliteBeforeShoppers)
                try db.execute(sql: """
                    DROP INDEX recent_searches_newest;
                    DROP TRIGGER products_search_insert;
                    DROP TRIGGER products_search_delete;
                    DROP TRIGGER products_search_update;
                    DROP TABLE product_search;
                    ALTER TABLE products DROP COLUMN active;
                    ALTER TABLE products DROP COLUMN position;
                    ALTER TABLE products DROP COLUMN image_file;
                    ALTER TABLE products DROP COLUMN image_key;
                    ALTER TABLE products DROP COLUMN image_width;
                    ALTER TABLE products DROP COLUMN image_height;
                    DELETE FROM settings WHERE key IN ('catalog-version', 'catalog-origin');
                    INSERT INTO sessions (id, created_at, last_seen, display_name) VALUES ('\(id)', 1, 2, 'Ada');
                    INSERT INTO cart_items (session_id, product_id, quantity, added_at) VALUES ('\(id)', 3, 2, 1);
                    INSERT INTO recent_searches (session_id, query, searched_at) VALUES ('\(id)', 'tent', 1);
                    INSERT INTO orders (session_id, placed_at) VALUES ('\(id)', 1);
                    INSERT INTO orders (session_id, placed_at) VALUES ('\(String(repeating: "cd", count: 20))', 1);
                    """)
                db.close()
            }
            let storage = try location.open()
            defer { storage.close() }
            let hashed = SHA256.hexDigest(of: id)
            guard case .active(let stored) = try storage.sessions.session(clientID: hashed) else {
                Issue.record("the upgraded session is not a client in use")
                return
            }
            #expect(stored.displayName == "Ada" && stored.cart.items.map(\.quantity) == [2])
            let session = Session(
                clientID: hashed, shopperID: stored.shopperID, createdAt: 1, displayName: "Ada", isStored: true, csrfToken: "", liveKey: "",
                shopperLiveKey: stored.shopperLiveKey
            )
            #expect(try storage.searches.recentSearches(for: session) == ["tent"])
            #expect(try storage.orders.orders(for: session).count == 0, "the order has no lines, so it reads as none")
            let db = try Database(path: location.database)
            #expect(try db.fetchValue("SELECT count(*) FROM orders WHERE shopper_id = ?", [hashed], as: Int.self) == 1)
            #expect(try db.fetchValue("SELECT count(*) FROM orders WHERE length(shopper_id) = 64", as: Int.self) == 2)
            #expect(try db.fetchValue("PRAGMA foreign_key_check", as: String.self) == nil)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: location.database))
            #expect(bytes.range(of: Data(id.utf8)) == nil, "the old id lingers in the file")
        }

        // MARK: - Finding 8: cookie tossing

        @Test("With --secure-cookies the session cookie is __Host-: Secure, Path=/, no Domain; a plain-named cookie is not read")
        func hostPrefixedCookie() throws {
            let shop = try TestShop { $0.secureCookies = true }
            let first = try shop.client().get("/")
            let header = try #require(first.headers(named: "Set-Cookie").first { $0.hasPrefix("__Host-quickcart_session=") })
            let attributes = header.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            #expect(attributes.contains("secure") && attributes.contains("path=/") && !attributes.contains { $0.hasPrefix("domain") }, "\(header)")
            let value = String(header.split(separator: ";")[0].dropFirst("__Host-quickcart_session=".count))

            let planted = try shop.client().get("/events", headers: [("Cookie", "quickcart_session=\(value)")])
            #expect(planted.status == 403, "a cookie without the prefix is not the session cookie")
            let stream = try TestEventStreamClient(port: shop.port, headers: [("Cookie", "__Host-quickcart_session=\(value)")])
            #expect(stream.status == 200)
        }

        @Test("Two session cookies: neither is trusted, in one Cookie header or two, whichever comes first")
        func duplicateCookiesAreNotTrusted() throws {
            let shop = try TestShop()
            let victim = shop.browser(), planter = shop.browser()
            #expect(try victim.post("/profile/name", form: [("display_name", "Victim")]).status == 303)
            #expect(try planter.post("/profile/name", form: [("display_name", "Planter")]).status == 303)
            let mine = try #require(victim.sessionCookie), theirs = try #require(planter.sessionCookie)
            let headerSets: [[(String, String)]] = [
                [("Cookie", "quickcart_session=\(theirs); quickcart_session=\(mine)")],
                [("Cookie", "quickcart_session=\(mine); quickcart_session=\(theirs)")],
                [("Cookie", "quickcart_session=\(theirs)"), ("Cookie", "quickcart_session=\(mine)")],
                [("Cookie", "other=1; quickcart_session=\(mine);quickcart_session=\(mine)")],
            ]
            for headers in headerSets {
                let page = Page(try shop.client().get("/profile", headers: headers), method: "GET", target: "/profile")
                #expect(page.status == 200)
                #expect(!page.text.contains("Victim") && !page.text.contains("Planter"), "\(headers): a session was trusted")
                #expect(page.sessionCookie != nil, "\(headers): a fresh session begins")
                let stream = try TestEventStreamClient(port: shop.port, headers: headers)
                #expect(stream.status == 403, "\(headers)")
            }
            #expect(try victim.get("/profile").text.contains("Victim"), "one cookie still works")
        }

        // MARK: - Sessions that end, and ids that rotate

        @Test("Sign-out with a cookie the session renewed (a spent cookie in its grace) is refused and signs nothing out: its reach ends with its grace")
        func signOutWithARenewedCookie() throws {
            let shop = try TestShop()
            let (browser, first) = try shop.visitor()
            #expect(try browser.post("/profile/name", form: [("display_name", "Ada")]).status == 303)
            #expect(browser.sessionCookie != first, "storing the session rotates its id")
            let token = try browser.token()

            let answer = Page(
                try shop.client().post("/profile/sign-out", form: [("csrf", token)], headers: [("Cookie", "quickcart_session=\(first)")]),
                method: "POST", target: "/profile/sign-out"
            )
            #expect(answer.status == 403, "\(answer.summary)")
            #expect(answer.setCookies.filter { $0.name == Page.sessionCookieName }.isEmpty, "\(answer.response.headers(named: "Set-Cookie"))")
            #expect(try browser.get("/profile").text.contains("Ada"), "the renewed cookie signed the browser out")
        }

        @Test("Sign out of this browser: a new, empty session; the old cookie reaches nothing; its rows are gone")
        func signOut() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            #expect(try browser.post("/profile/name", form: [("display_name", "Ada")]).status == 303)
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            _ = try browser.search("tent")
            let old = try #require(browser.sessionCookie)
            let profile = try browser.get("/profile")
            #expect(profile.text.contains("Ada"))

            let answer = try browser.click("Sign out of this browser", on: profile)
            #expect(answer.status == 303 && answer.location == "/profile", "\(answer.summary)")
            let fresh = try #require(answer.sessionCookie?.value)
            #expect(Self.id(of: fresh) != Self.id(of: old))
            let after = try browser.get("/profile")
            #expect(!after.text.contains("Ada") && after.sessionCookie == nil)
            #expect(try browser.cart().lines.isEmpty, "a signed-out browser starts empty, not with the starter cart")
            #expect(try Self.count("shoppers", in: shop) == 0 && Self.count("cart_items", in: shop) == 0 && Self.count("recent_searches", in: shop) == 0)

            let returning = shop.browser(cookie: old)
            #expect(!(try returning.get("/profile").text.contains("Ada")))
            #expect(try returning.cart().lines.isEmpty)
            #expect(try browser.post("/profile/sign-out", csrf: .value("wrong")).status == 403, "signing out is a form with a CSRF token")
        }

        @Test("The first change stores the session under a new id: streams of the old cookie follow it; the old cookie is moved to the new one")
        func firstChangeRotatesTheID() throws {
            let shop = try TestShop()
            let browser = shop.browser()
            let page = try browser.get("/cart")
            let old = try #require(browser.sessionCookie)
            let oldStream = try browser.eventStream()
            #expect(try oldStream.next().data == "3")

            let change = try browser.click("Increase quantity of \(Products.shoes)", on: page)
            #expect(change.status == 303)
            let new = try #require(change.sessionCookie?.value, "the answer to the first change sets the new cookie")
            #expect(Self.id(of: new) != Self.id(of: old))
            #expect(try oldStream.next().data == "4", "the change reaches the stream opened under the old cookie")

            let newStream = try browser.eventStream()
            #expect(try newStream.next().data == "4")
            #expect(try browser.click("Increase quantity of \(Products.shoes)", on: page).status == 303, "the page's forms still work")
            #expect(try newStream.next().data == "5")
            #expect(try oldStream.next().data == "5", "the old cookie's stream follows the stored session")

            // Within the grace (SessionManager.spentCookieGrace; LiveKeyTests covers its end) a
            // request that kept the old cookie still reaches the stored session, but is never
            // given a cookie: the old one's reach ends with the grace (issue 20, finding 3).
            let late = shop.browser(cookie: old)
            let replay = try late.get("/cart")
            #expect(replay.cartSnapshot.badge == "5", "the old cookie still reaches the stored cart")
            #expect(replay.sessionCookie == nil, "the old cookie was given a cookie: \(replay.sessionCookie?.value ?? "")")
        }

        @Test("Streams moved to the stored session keep its limit of 16, and leave the hub when their clients go")
        func movedStreamsAreCappedAndReaped() throws {
            let shop = try TestShop(heartbeatInterval: 0.2)
            let browser = shop.browser()
            let page = try browser.get("/cart")
            let streams = try (0..<16).map { _ in try browser.eventStream() }
            for stream in streams { #expect(try stream.next().data == "3") }
            #expect(try browser.click("Increase quantity of \(Products.shoes)", on: page).status == 303)
            for stream in streams { #expect(try stream.next().data == "4") }
            let newest = try browser.eventStream()
            #expect(try newest.next().data == "4")
            #expect(throws: TestHTTPClient.Failure.self, "the oldest moved stream makes room") {
                while true { _ = try streams[0].next() }
            }
            #expect(shop.app.hub.totalStreamCount == 16)
            for stream in streams + [newest] { stream.connection.disconnect() }
            let deadline = ContinuousClock.now + .seconds(5)
            while shop.app.hub.totalStreamCount > 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(shop.app.hub.totalStreamCount == 0, "moved streams must leave the hub when they end")
        }
    }
}
