import Foundation
@testable import QuickCart
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

        @Test("--test-heartbeat (or QUICKCART_TEST_HEARTBEAT) sets the streams' keep-alive interval, 1 to 30 s, and the tab bar names it in ms")
        func testHeartbeat() throws {
            #expect(try QuickCart.Configuration.parse(arguments: ["--test-heartbeat", "1"], environment: [:]).heartbeatInterval == 1)
            #expect(try QuickCart.Configuration.parse(arguments: [], environment: ["QUICKCART_TEST_HEARTBEAT": "30"]).heartbeatInterval == 30)
            for refused in ["0", "31", "0.5"] {
                #expect(throws: QuickCart.Configuration.UsageError.self) {
                    try QuickCart.Configuration.parse(arguments: ["--test-heartbeat", refused], environment: [:])
                }
            }
            let standard = try TestShop().browser().get("/")
            #expect(standard.text.contains(#"data-live-url="/events?texts" data-live-heartbeat="15000""#), "\(standard.text.prefix(4000))")
            #expect(try TestShop(heartbeatInterval: 1).browser().get("/cart").text.contains(#"data-live-heartbeat="1000""#))
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

        /// A value each serving option that takes one accepts.
        static let samples: [String: String] = [
            "--host": "::1", "--port": "0", "--db": "ignored.sqlite", "--resources": TestShop.repositoryRoot, "--media": "/tmp",
            "--threads": "2", "--session-days": "7", "--db-max-mb": "100", "--max-connections-per-ip": "0",
            "--max-streams-per-ip": "5", "--trusted-proxy": "127.0.0.1", "--metrics": "127.0.0.1:0", "--log-format": "json",
            "--tls-cert": "/etc/ssl/shop.pem", "--tls-key": "/etc/ssl/shop.key", "--http-redirect-port": "0",
            "--shop-name": "Trailhead Outfitters", "--shop-short-name": "Trailhead", "--test-clock-file": "/tmp/no-such-clock",
            "--test-heartbeat": "1",
        ]

        /// The options an option needs beside it.
        static let companions: [String: [String]] = [
            "--tls-cert": ["--tls-key", "/etc/ssl/shop.key"], "--tls-key": ["--tls-cert", "/etc/ssl/shop.pem"],
            "--http-redirect-port": ["--tls-cert", "/etc/ssl/shop.pem", "--tls-key", "/etc/ssl/shop.key"],
        ]

        @Test("Every serving option, and its variable, is accepted by an operator command, its value never taken for the FILE",
              arguments: ConfigurationOption.all.map(\.flag))
        func everyServingOptionInAnOperatorCommand(flag: String) throws {
            let option = try #require(ConfigurationOption.named(flag))
            let given: [String]
            if option.takesValue {
                let sample = try #require(Self.samples[flag], "give \(flag) a sample value in ConfigurationTests.samples")
                given = [flag, sample] + (Self.companions[flag] ?? [])
                // The serving parse takes the sample: it is a value that option accepts.
                _ = try QuickCart.Configuration.parse(arguments: given, environment: [:])
            } else {
                given = [flag]
            }
            let directory = try TemporaryDirectory()
            // The shop exists: operator commands open an existing database only.
            try StoreLocation(database: directory.path + "/shop.sqlite", keeping: directory).open().close()
            let catalog = directory.path + "/catalog.csv"
            try Data("slug,name,category,price\nmug,Mug,Kitchen,9.50\n".utf8).write(to: URL(fileURLWithPath: catalog))
            // The option stands between the verb and the FILE: a value option's value must not become the FILE.
            let run = OperatorRun(["catalog", "import"] + given + [catalog, "--dry-run"], database: directory.path + "/shop.sqlite")
            #expect(run.status == 0, "\(given): \(run.report)")
            #expect(run.output.contains("catalog.csv is valid"), "\(run.output)")

            if let variable = option.environment {
                let value = option.takesValue ? Self.samples[flag] ?? "" : "1"
                _ = try QuickCart.Configuration.parse(arguments: Self.companions[flag] ?? [], environment: [variable: value])
            }
        }

        @Test("The shop's name and short name: flags or variables, trimmed, the short name the name unless given")
        func shopName() throws {
            #expect(QuickCart.Configuration().shop == ShopIdentity(name: "QuickCart"))
            let named = try QuickCart.Configuration.parse(arguments: ["--shop-name", "  Trailhead Outfitters "], environment: [:])
            #expect(named.shop.name == "Trailhead Outfitters")
            #expect(named.shop.shortName == "Trailhead Outfitters")
            // The short name first, the name after it: each keeps the other.
            let both = try QuickCart.Configuration.parse(
                arguments: ["--shop-short-name=Trailhead", "--shop-name", "Trailhead Outfitters"], environment: [:]
            )
            #expect(both.shop == ShopIdentity(name: "Trailhead Outfitters", shortName: "Trailhead"))
            let variables = try QuickCart.Configuration.parse(
                arguments: ["--shop-name", "Flag Shop"],
                environment: ["QUICKCART_SHOP_NAME": "Variable Shop", "QUICKCART_SHOP_SHORT_NAME": "Variable"]
            )
            #expect(variables.shop == ShopIdentity(name: "Flag Shop", shortName: "Variable"))
            // A name longer than a home screen shows, with no short name: the owner is told at start.
            #expect(named.shop.shortNameHint?.contains("--shop-short-name") == true)
            #expect(both.shop.shortNameHint == nil && ShopIdentity(name: "Trailhead").shortNameHint == nil && ShopIdentity.standard.shortNameHint == nil)
        }

        @Test("A shop name that is empty, too long, or holds control or invisible characters is a usage error", arguments: [
            ["--shop-name", "   "], ["--shop-name", String(repeating: "n", count: 61)], ["--shop-name", "Bad\u{7}Shop"],
            ["--shop-name", "Hidden\u{200B}Shop"], ["--shop-short-name", String(repeating: "s", count: 31)], ["--shop-short-name", ""],
        ])
        func badShopNames(arguments: [String]) {
            #expect {
                _ = try QuickCart.Configuration.parse(arguments: arguments, environment: [:])
            } throws: { error in
                "\(error)".contains(arguments[0])
            }
        }

        @Test("--help lists every option, and its variable")
        func helpListsEveryOption() {
            for option in ConfigurationOption.all {
                #expect(QuickCart.Configuration.usage.contains("  " + option.flag), "\(option.flag)")
                if let variable = option.environment { #expect(QuickCart.Configuration.usage.contains(variable)) }
            }
        }

        @Test("--help's usage lines name every command, backup and restore included")
        func helpNamesEveryCommand() throws {
            let usage = QuickCart.Configuration.usage
            let head = try #require(usage.firstRange(of: "\n\n").map { usage[..<$0.lowerBound] })
            for command in ["catalog import", "catalog export", "delivery import", "delivery export", "orders export", "orders mark", "backup", "restore"] {
                #expect(OperatorCommand.isCommand(command.split(separator: " ").map(String.init)), "\(command)")
                #expect(head.contains("quickcart \(command) "), "\(command) is missing from \(head)")
            }
        }

        /// libpq's keyword/value spelling of a connection string, with a password.
        static let keywordValue = "host=127.0.0.1 port=5432 user=shop password=s3cret dbname=quickcart"

        @Test("A libpq keyword/value --db is PostgreSQL: its media folder is the working directory's, its password never shown", arguments: [
            keywordValue, "  dbname = quickcart password='s3cret' host=db", "dbname=quickcart password=s3cret",
        ])
        func keywordValueConnectionString(location: String) throws {
            #expect(Storage.isPostgreSQL(location))
            #expect(!Storage.loggable(location).contains("s3cret"), "\(Storage.loggable(location))")
            let configuration = try QuickCart.Configuration.parse(arguments: ["--db", location], environment: [:])
            #expect(configuration.mediaDirectory == URL(fileURLWithPath: "media").path)
        }

        @Test("File paths stay SQLite files, an equals sign in them or not", arguments: [
            "quickcart.sqlite", "/var/lib/quickcart/shop.sqlite", "./host=db.sqlite", "data/a=b.sqlite", "shop.sqlite?mode=ro",
            "shop=1.sqlite", "/srv/a=b.sqlite",
        ])
        func filePaths(location: String) {
            #expect(!Storage.isPostgreSQL(location))
            #expect(Storage.loggable(location) == location)
        }

        @Test("A switch given a value, and a variable's list, are read as before")
        func switchesAndLists() throws {
            #expect(throws: QuickCart.Configuration.UsageError.self) {
                _ = try QuickCart.Configuration.parse(arguments: ["--empty-carts=1"], environment: [:])
            }
            let proxies = try QuickCart.Configuration.parse(
                arguments: ["--trusted-proxy", "10.0.0.9"], environment: ["QUICKCART_TRUSTED_PROXIES": " 127.0.0.1, ::1 ,"]
            )
            #expect(proxies.trustedProxies == ["127.0.0.1", "::1", "10.0.0.9"])
            let quiet = try QuickCart.Configuration.parse(arguments: [], environment: ["QUICKCART_ACCESS_LOG": "0"])
            #expect(!quiet.accessLog)
            #expect(try !QuickCart.Configuration.parse(arguments: ["--no-access-log"], environment: ["QUICKCART_ACCESS_LOG": "1"]).accessLog)
        }
    }
}
