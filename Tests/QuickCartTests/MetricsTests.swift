import Foundation
import HTTPTesting
import MicroHTTP
import Postgres
import PostgresTesting
import QuickCart
import Testing

extension ShopTests {
    /// `/metrics` on its own listener: storage's share of it on both backends, and the
    /// route table's slots. (Tests/Browser/test_operator_metrics.py reads it with Prometheus'
    /// own parser.)
    @Suite("Operator metrics")
    struct MetricsTests {
        /// The metrics text of `shop`, from its metrics listener.
        static func metrics(of shop: TestShop) throws -> String {
            let port = try #require(shop.app.metricsPort)
            let response = try TestHTTPClient(port: port).get("/metrics")
            #expect(response.status == 200)
            return response.text
        }

        /// The value of the sample `line` starts, when there is one.
        static func sample(_ name: String, in text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }

        @Test("Storage reports its pool waits; PostgreSQL its listener, up, and a notification's lag through the database", arguments: StoreBackend.allCases)
        func storageStatistics(backend: StoreBackend) throws {
            let shop = try TestShop(on: backend) { $0.metricsAddress = .init(host: "127.0.0.1", port: 0) }
            #expect(try shop.browser().get("/metrics").status == 404, "never on the shop's port")
            let text = try Self.metrics(of: shop)
            #expect(Self.sample("quickcart_db_pool_waits_total", in: text) == 0)
            switch backend {
            case .sqlite:
                #expect(Self.sample("quickcart_db_writer_waits_total", in: text) == 0)
                #expect(Self.sample("quickcart_postgres_listener_up", in: text) == nil)
            case .postgres:
                #expect(Self.sample("quickcart_postgres_listener_up", in: text) == 1)
                #expect(Self.sample("quickcart_postgres_listener_sessions_total", in: text) == 1)
                let lag = try #require(Self.sample("quickcart_postgres_notification_lag_seconds", in: text), "\(text)")
                #expect(lag > 0 && lag < 1)
            }
        }

        @Test("While the PostgreSQL listener is down no lag is reported, not the last one measured; back, it is measured again")
        func noLagWhileTheListenerIsDown() throws {
            let shop = try TestShop(on: .postgres) { $0.metricsAddress = .init(host: "127.0.0.1", port: 0) }
            defer { shop.stop() }
            let before = try Self.metrics(of: shop)
            #expect(Self.sample("quickcart_postgres_notification_lag_seconds", in: before) != nil, "\(before)")

            // The database takes no new connection, and the listener's is ended: it stays down.
            let url = try #require(shop.location).database
            let name = try #require(url.split(separator: "/").last?.split(separator: "?").first)
            let admin = try PostgresConnection(connectionString: try TestPostgresServer.shared().url())
            defer { admin.close() }
            try admin.execute(sql: "ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS false")
            defer { _ = try? admin.execute(sql: "ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true") }
            let ended = try admin.fetchValue(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'", String(name), as: Int.self
            )
            #expect(ended == 1)
            var down = try Self.metrics(of: shop)
            let deadline = ContinuousClock.now + .seconds(5)
            while Self.sample("quickcart_postgres_listener_up", in: down) != 0, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
                down = try Self.metrics(of: shop)
            }
            #expect(Self.sample("quickcart_postgres_listener_up", in: down) == 0, "\(down)")
            #expect(!down.contains("quickcart_postgres_notification_lag_seconds"), "a lag from before the outage: \(down)")

            try admin.execute(sql: "ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true")
            var back = down
            while Self.sample("quickcart_postgres_listener_sessions_total", in: back) != 2, ContinuousClock.now < deadline + .seconds(5) {
                Thread.sleep(forTimeInterval: 0.05)
                back = try Self.metrics(of: shop)
            }
            #expect(Self.sample("quickcart_postgres_listener_up", in: back) == 1, "\(back)")
            let lag = try #require(Self.sample("quickcart_postgres_notification_lag_seconds", in: back), "\(back)")
            #expect(lag > 0 && lag < 1)
        }

        @Test("A thrown error and a 405 are counted under the route that matched; an unknown path under none")
        func routeSlots() throws {
            var router = Router()
            router.get("/fails") { _ in throw HTTPError(.badRequest, "no") }
            router.post("/only-post/:id") { _ in .text("ok") }
            #expect(router.routePatterns == ["/fails", "/only-post/:id"])
            let fails = router.respond(to: Request(method: .get, path: "/fails"))
            #expect(fails.status == .badRequest && fails.routeSlot == 0)
            let wrongMethod = router.respond(to: Request(method: .get, path: "/only-post/7"))
            #expect(wrongMethod.status == .methodNotAllowed && wrongMethod.routeSlot == 1)
            #expect(router.respond(to: Request(method: .get, path: "/elsewhere")).routeSlot == -1)
        }
    }
}
