import Foundation
import QuickCart
import Testing

extension ShopTests {
    /// Options: flags, then `QUICKCART_*` variables, then defaults.
    @Suite("Configuration") struct ConfigurationTests {
        @Test("Defaults: 127.0.0.1:8080, quickcart.sqlite, demo carts, keep-alives within 30 s")
        func defaults() throws {
            let configuration = try QuickCart.Configuration.parse(arguments: [], environment: [:])
            #expect(configuration.host == "127.0.0.1")
            #expect(configuration.port == 8080)
            #expect(configuration.databasePath == "quickcart.sqlite")
            #expect(!configuration.emptyCarts)
            #expect(configuration.heartbeatInterval > 0 && configuration.heartbeatInterval <= 30,
                    "event streams must get a comment at least every 30 s; the heartbeat is \(configuration.heartbeatInterval) s")
        }

        @Test("A PostgreSQL URL's media folder is in the working directory, whatever the scheme's case", arguments: [
            "postgres://db/shop", "postgresql://db/shop", "POSTGRES://db/shop", "PostgreSQL://shop@db/shop",
        ])
        func mediaFolderOfAPostgreSQLURL(url: String) throws {
            let configuration = try QuickCart.Configuration.parse(arguments: ["--db", url], environment: [:])
            #expect(configuration.mediaDirectory == URL(fileURLWithPath: "media").path)
            #expect(Storage.isPostgreSQL(url))
        }

        @Test("Environment variables set options, and flags win over them")
        func environmentThenFlags() throws {
            let environment = ["QUICKCART_HOST": "0.0.0.0", "QUICKCART_PORT": "9000", "QUICKCART_DB": "/tmp/env.sqlite", "QUICKCART_EMPTY_CARTS": "1"]
            let fromEnvironment = try QuickCart.Configuration.parse(arguments: [], environment: environment)
            #expect(fromEnvironment.host == "0.0.0.0")
            #expect(fromEnvironment.port == 9000)
            #expect(fromEnvironment.databasePath == "/tmp/env.sqlite")
            #expect(fromEnvironment.emptyCarts)

            let flags = try QuickCart.Configuration.parse(arguments: ["--host", "::1", "--port=0", "--db", "flag.sqlite", "--empty-carts"], environment: environment)
            #expect(flags.host == "::1")
            #expect(flags.port == 0, "--port 0 picks a free port")
            #expect(flags.databasePath == "flag.sqlite")
            #expect(flags.emptyCarts)
        }

        @Test("Malformed options are usage errors naming the option", arguments: [
            (["--port", "http"], [String: String]()), (["--port", "70000"], [:]), (["--bogus"], [:]), (["--db"], [:]),
            ([], ["QUICKCART_PORT": "-1"]), ([], ["QUICKCART_EMPTY_CARTS": "maybe"]),
        ])
        func malformedOptions(arguments: [String], environment: [String: String]) {
            #expect {
                _ = try QuickCart.Configuration.parse(arguments: arguments, environment: environment)
            } throws: { error in
                let text = "\(error)"
                let named = (arguments.first ?? environment.keys.first ?? "")
                return text.contains(named)
            }
        }
    }
}
