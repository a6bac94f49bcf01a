import Foundation
import HTTPTesting
import MicroHTTP
@testable import QuickCart
import SQLite
import Synchronization
import Testing

extension ShopTests {
    /// Hostile clients, abuse and failing storage: each answered, nothing lost, no one in.
    @Suite("Hardening")
    struct Hardening {
        private static func database(of shop: TestShop) throws -> Database {
            try Database(path: shop.directory.path + "/quickcart.sqlite")
        }

        @Test("Cookieless crawling stores no sessions: the database does not grow")
        func crawlersCostNoStorage() throws {
            let shop = try TestShop()
            let file = shop.directory.path + "/quickcart.sqlite"
            let sizeBefore = try Self.databaseBytes(file)
            for index in 0..<300 {
                let path = ["/", "/cart", "/profile", "/search", "/events-not", "/static/css/app.css"][index % 6]
                _ = try shop.client().get(path)
            }
            let sizeAfter = try Self.databaseBytes(file)
            let sessions = try Self.database(of: shop).fetchValue("SELECT count(*) FROM shoppers", as: Int.self)
            print("database before 300 cookieless requests: \(sizeBefore) bytes; after: \(sizeAfter) bytes; sessions stored: \(sessions ?? -1)")
            #expect(sessions == 0, "expected no stored sessions after crawling, saw \(sessions ?? -1)")
            #expect(sizeAfter == sizeBefore, "expected the database to stay \(sizeBefore) bytes, saw \(sizeAfter)")
            // The first change stores the session, with its demo cart.
            let browser = shop.browser()
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            #expect(try Self.database(of: shop).fetchValue("SELECT count(*) FROM shoppers", as: Int.self) == 1)
            #expect(try browser.cart().badge == "4")
        }

        private static func databaseBytes(_ file: String) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let wal = (try? FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int) ?? 0
            return (attributes[.size] as? Int ?? 0) + wal
        }

        @Test("Idle sessions expire: they are purged with their carts, and their cookie starts afresh")
        func idleSessionsExpire() throws {
            let shop = try TestShop { $0.sessionIdleSeconds = 1 }
            let browser = shop.browser()
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            let oldCookie = try #require(browser.sessionCookie)
            let db = try Self.database(of: shop)
            #expect(try db.fetchValue("SELECT count(*) FROM shoppers", as: Int.self) == 1)
            Thread.sleep(forTimeInterval: 2.1)
            shop.app.purgeExpiredSessions()
            #expect(try db.fetchValue("SELECT count(*) FROM shoppers", as: Int.self) == 0)
            #expect(try db.fetchValue("SELECT count(*) FROM cart_items", as: Int.self) == 0)
            let returning = shop.browser(cookie: oldCookie)
            let page = try returning.get("/cart")
            #expect(page.badgeReading == "3", "an expired session comes back to a fresh demo cart, saw \(page.badgeReading)")
            #expect(returning.sessionCookie != oldCookie, "an expired session must get a new id")
        }

        @Test("A session holds at most 16 event streams: the oldest is closed for a new one")
        func streamsPerSessionAreCapped() throws {
            let browser = try TestShop().browser()
            _ = try browser.get("/")
            var streams: [TestEventStreamClient] = []
            for _ in 0..<16 {
                let stream = try browser.eventStream()
                _ = try stream.next()
                streams.append(stream)
            }
            let newest = try browser.eventStream()
            _ = try newest.next()
            #expect(throws: TestHTTPClient.Failure.self, "the oldest stream should end") {
                while true { _ = try streams[0].next() }
            }
            #expect(try browser.post("/cart/items", form: [("product", "3")]).status == 303)
            #expect(try newest.next().data == "4")
            #expect(try streams[1].next().data == "4")
        }

        @Test("A full database answers 503, changes nothing, and recovers when space is freed")
        func fullDatabaseIs503UntilSpaceReturns() throws {
            let shop = try TestShop { $0.maximumDatabaseBytes = 1 << 20 }
            // Something else fills the disk (here: the app's 1 MiB quota).
            let db = try Self.database(of: shop)
            try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
            for _ in 0..<40 { try db.execute("INSERT INTO filler VALUES (zeroblob(32768))") }

            // New shoppers keep arriving; once a change needs a new page, it is refused.
            var refusedBrowser: Browser?
            var refused: Page?
            for _ in 0..<400 {
                let browser = shop.browser()
                let page = try browser.post("/cart/items", form: [("product", "5")])
                if page.status == 503 {
                    (refusedBrowser, refused) = (browser, page)
                    break
                }
                try #require(page.status == 303, "expected 303 or 503, saw \(page.summary)")
            }
            let browser = try #require(refusedBrowser, "the full database never refused a change")
            let answer = try #require(refused)
            #expect(answer.header("Retry-After") != nil)
            #expect(answer.text.contains("nothing was changed"), "\(answer.summary)")
            let sessions = try db.fetchValue("SELECT count(*) FROM shoppers", as: Int.self) ?? 0
            #expect(try browser.cart().badge == "3", "a refused change must leave the cart as it was")

            try db.execute(sql: "DROP TABLE filler")
            let accepted = try browser.post("/cart/items", form: [("product", "5")])
            #expect(accepted.status == 303, "expected the shop to recover once space was freed, saw \(accepted.summary)")
            #expect(try db.fetchValue("SELECT count(*) FROM shoppers", as: Int.self) == sessions + 1)
        }

        @Test("Secure cookies turn on Secure and Strict-Transport-Security")
        func secureCookies() throws {
            let shop = try TestShop { $0.secureCookies = true }
            let page = try shop.browser().get("/")
            let cookie = try #require(page.response.headers(named: "Set-Cookie").first { $0.hasPrefix("__Host-quickcart_session=") })
            #expect(cookie.contains("; Secure"))
            #expect(page.header("Strict-Transport-Security")?.hasPrefix("max-age=") == true)
            let plainShop = try TestShop()
            let plain = try plainShop.browser().get("/")
            #expect(plain.header("Strict-Transport-Security") == nil)
        }

        @Test("With --secure-cookies every cookie the shop sets is Secure: the session's, a notice's and the one clearing it")
        func everyCookieIsSecure() throws {
            let shop = try TestShop { $0.secureCookies = true }
            let first = Page(try shop.client().get("/"), method: "GET", target: "/")
            let session = try #require(first.setCookies.first { $0.name == "__Host-quickcart_session" })
            let sessionPair = "__Host-quickcart_session=\(session.value)"
            let token = try #require(first.csrfToken)
            let added = Page(
                try shop.client().post("/cart/items", form: [("csrf", token), ("product", "3")], headers: [("Cookie", sessionPair)]),
                method: "POST", target: "/cart/items"
            )
            #expect(added.status == 303, "\(added.summary)")
            // Prefixed as the session's is, so no sibling subdomain can set one.
            let notice = try #require(added.setCookies.first { $0.name == "__Host-quickcart_notice" }, "the add left no notice")
            #expect(notice.attributes["secure"] != nil, "the notice cookie is not Secure: \(added.response.headers(named: "Set-Cookie"))")
            for cookie in added.setCookies { #expect(cookie.attributes["secure"] != nil, "\(cookie.name) is not Secure") }

            let shown = Page(
                try shop.client().get("/", headers: [("Cookie", "\(sessionPair); __Host-quickcart_notice=\(notice.value)")]),
                method: "GET", target: "/"
            )
            let clearing = try #require(shown.setCookies.first { $0.name == "__Host-quickcart_notice" }, "the page did not clear the notice")
            #expect(clearing.attributes["secure"] != nil, "the clearing cookie is not Secure")
        }

        @Test("Every answer carries the security headers, error pages and static files included")
        func securityHeadersEverywhere() throws {
            let shop = try TestShop()
            for target in ["/", "/nowhere", "/static/css/app.css", "/search?q=%zz", "/healthz"] {
                let page = try shop.browser().get(target)
                let policy = page.header("Content-Security-Policy") ?? ""
                #expect(policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(target): \(policy)")
                #expect(page.header("X-Content-Type-Options") == "nosniff", "\(target)")
                #expect(page.header("Referrer-Policy") == "same-origin", "\(target)")
                #expect(page.header("Permissions-Policy") != nil, "\(target)")
            }
        }

        @Test("An address too long, header fields too large, no Host or two, or a space in the target: the shop's own error page with its security headers")
        func refusalsBeforeRoutingAreTheShops() throws {
            let shop = try TestShop()
            let refusals: [(head: String, status: Int, title: String, says: String)] = [
                ("GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "Address too long", "longer than the 8 KiB"),
                ("GET /search?q=\(String(repeating: "a", count: 9_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "Address too long", "longer than the 8 KiB"),
                ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431, "Request too large", "larger than the 8 KiB"),
                ("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<150).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431, "Request too large", "more than 100 header fields"),
                ("GET / HTTP/1.1\r\n\r\n", 400, "That didn’t work", "This request could not be read."),
                ("GET /static/css/app.css HTTP/1.1\r\n\r\n", 400, "That didn’t work", "This request could not be read."),
                ("GET /cart HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, "That didn’t work", "This request could not be read."),
                ("GET /search?q=a b HTTP/1.1\r\nHost: x\r\n\r\n", 400, "That didn’t work", "This address has a mistake in it."),
                ("GET http://user@x/cart HTTP/1.1\r\nHost: x\r\n\r\n", 400, "That didn’t work", "This address has a mistake in it."),
                ("GET /cart HTTP/1.1\r\n: x\r\nHost: x\r\n\r\n", 400, "That didn’t work", "This request could not be read."),
                ("POST /cart/items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, "Not supported", "This request could not be read."),
            ]
            for refusal in refusals {
                let client = try shop.client()
                try client.send(refusal.head)
                let page = try client.readResponse()
                let what = "\(refusal.status) \(refusal.head.prefix(40))"
                #expect(page.status == refusal.status, "\(what)")
                #expect(page.header("Content-Type") == "text/html; charset=utf-8", "\(what)")
                #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true, "\(what)")
                #expect(page.header("X-Content-Type-Options") == "nosniff", "\(what)")
                #expect(page.header("X-Frame-Options") == "DENY", "\(what)")
                #expect(page.header("Referrer-Policy") == "same-origin", "\(what)")
                #expect(page.text.contains("<h1") && page.text.contains(refusal.title) && page.text.contains(refusal.says), "\(what): a readable page")
                #expect(!page.text.contains("X-Big") && !page.text.contains("Host:"), "\(what): no request echoed back")
                #expect(try shop.browser().get("/").status == 200, "the shop goes on serving")
            }
        }

        @Test("A target in absolute form (http://host/path) is answered as the path it names")
        func absoluteFormTargets() throws {
            let shop = try TestShop()
            for (target, marker) in [("http://shop.example/cart", "<title>Cart"), ("HTTP://shop.example/static/css/app.css", ":root")] {
                let client = try shop.client()
                try client.send("GET \(target) HTTP/1.1\r\nHost: other.example\r\n\r\n")
                let answer = try client.readResponse()
                #expect(answer.status == 200 && answer.text.contains(marker), "\(target): \(answer.status)")
            }
        }

        @Test("Hostile catalog names render inert in every context")
        func hostileCatalogNamesAreInert() throws {
            let directory = try TemporaryDirectory()
            try TestShop(directory: directory).stop()
            let db = try Database(path: directory.path + "/quickcart.sqlite")
            try db.execute("UPDATE products SET name = ?, summary = ? WHERE id = 1", ["\"><script>alert(1)</script>", "javascript:alert(1) {{csrf}}"])
            db.close()
            let shop = try TestShop(directory: directory)
            for path in ["/", "/search?q=alert"] {
                let page = try shop.browser().get(path)
                #expect(!page.text.contains("<script>alert"), "\(path) rendered a raw script")
                #expect(page.text.contains("&quot;&gt;&lt;script&gt;"), "\(path) should show the name escaped")
                #expect(!page.text.contains("href=\"javascript:"), "\(path) made a javascript: link")
                #expect(page.text.contains("{{csrf}}"), "\(path): a name is text, never a template")
            }
        }

        @Test("Display names and searches with markup, template tags or javascript: stay text")
        func hostileInputIsInert() throws {
            let browser = try TestShop().browser()
            #expect(try browser.post("/profile/name", form: [("display_name", "{{csrf}}<b>")]).status == 303)
            let profile = try browser.get("/profile")
            #expect(profile.text.contains("{{csrf}}&lt;b&gt;"))
            _ = try browser.search("javascript:alert(1)")
            #expect(try browser.get("/search").text.contains("javascript:alert(1)"), "a stored session keeps its searches")
            let search = try browser.get("/search")
            #expect(search.text.contains("href=\"/search?q=javascript%3Aalert%281%29\""), "the recent search link must stay on this site")
        }

        @Test("The access log names method, path, status, size and time, and never the session id")
        func accessLogLines() throws {
            let lines = Mutex<[String]>([])
            let log = AccessLog(write: { line in lines.withLock { $0.append(line) } })
            var router = Router()
            router.add(middleware: log)
            router.get("/cart") { _ in .html("<p>cart</p>") }
            let sessionID = String(repeating: "ab", count: 20)
            // What the server does with each request: answer it, then report how that went.
            func serve(_ request: Request) {
                let started = DispatchTime.now().uptimeNanoseconds
                let response = router.respond(to: request)
                router.completed(request, Delivery(status: response.status, bodyBytes: response.body.count, startedAt: started, isSent: true))
            }
            serve(Request(method: .get, path: "/cart", cookies: ["quickcart_session": "\(sessionID).1.0123456789abcdef0123456789abcdef"]))
            serve(Request(method: .get, path: "/missing\n200 forged"))
            let written = lines.withLock { $0 }
            #expect(written.count == 2)
            let first = try #require(written.first)
            #expect(first.hasPrefix("- GET /cart 200 11B "), "\(first)")
            #expect(first.range(of: #"\d+\.\d\dms s=[0-9a-f]{10}\n$"#, options: .regularExpression) != nil, "\(first)")
            #expect(!first.contains(sessionID) && !first.contains("abab"), "the log must not contain the session id")
            #expect(written[1].filter { $0 == "\n" }.count == 1, "a path must not forge log lines: \(written[1])")
        }

        @Test("GET /healthz answers 200 while the database is reachable")
        func health() throws {
            let page = try TestShop().browser().get("/healthz")
            #expect(page.status == 200)
            #expect(page.text.hasPrefix("ok\n"))
        }
    }
}
