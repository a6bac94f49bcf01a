import Postgres
import PostgresTesting
import Testing

@Suite("Errors")
struct ErrorTests {
    @Test func syntaxErrorsCarrySQLStateMessageOperationAndSQL() throws {
        try withTestConnection { connection, _ throws in
            let error = try #require(throws: PostgresError.self) {
                try connection.execute("SELEKT $1", 1)
            }
            #expect(error.kind == .server)
            #expect(error.sqlState == "42601")
            #expect(error.operation == "prepare")
            #expect(error.sql == "SELEKT $1")
            #expect(error.message.contains("syntax error"))
            #expect(!error.isUnavailable)
            #expect(error.description.contains("42601"))
        }
    }

    @Test func uniqueViolationsAreClassified() throws {
        try withTestConnection { connection, _ throws in
            try connection.execute(sql: "CREATE TABLE users (email text PRIMARY KEY)")
            try connection.execute("INSERT INTO users VALUES ($1)", "ann@example.com")
            let error = try #require(throws: PostgresError.self) {
                try connection.execute("INSERT INTO users VALUES ($1)", "ann@example.com")
            }
            #expect(error.isUniqueViolation)
            #expect(error.isConstraintViolation)
            #expect(error.operation == "execute")
            // The server's detail ("Key (email)=(…) already exists") is not carried.
            #expect(!error.description.contains("ann@example.com"))
        }
    }

    @Test func boundValuesNeverReachTheError() throws {
        try withTestConnection { connection, _ throws in
            let secret = "tok-7f3a9c-secret"
            let error = try #require(throws: PostgresError.self) {
                try connection.fetchValue("SELECT $1::integer", secret, as: Int.self)
            }
            #expect(error.sqlState == "22P02")
            #expect(error.message.contains("invalid input syntax"))
            #expect(!error.message.contains(secret))
            #expect(!error.description.contains(secret))
            #expect(!String(reflecting: error).contains(secret))
        }
    }

    @Test func argumentCountMismatchIsMisuseNotAProtocolError() throws {
        try withTestConnection { connection, _ throws in
            let error = try #require(throws: PostgresError.self) {
                try connection.execute("SELECT $1::int, $2::int", 1)
            }
            #expect(error.kind == .misuse)
            #expect(!error.isUnavailable)
            // The connection is still fine.
            #expect(try connection.fetchValue("SELECT $1::int, $2::int", 1, 2) == 1)
        }
    }

    @Test func textWithNULIsRefusedRatherThanTruncated() throws {
        try withTestConnection { connection, _ throws in
            let error = try #require(throws: PostgresError.self) {
                try connection.execute("SELECT $1::text", "a\u{0}b")
            }
            #expect(error.kind == .misuse)
        }
    }

    @Test func aRefusedConnectionIsUnavailableAndHidesThePassword() throws {
        let server = try TestPostgresServer.shared()
        // A port nobody listens on: the shared server's port plus one is not guaranteed
        // free, so take one from a server that was never started there.
        let url = "postgres://shopper:hunter2-secret@127.0.0.1:1/shop"
        let error = try #require(throws: PostgresError.self) {
            _ = try PostgresConnection(connectionString: url)
        }
        #expect(error.kind == .connectionFailed)
        #expect(error.isUnavailable)
        #expect(error.operation == "connect")
        #expect(!error.description.contains("hunter2"))
        #expect(server.port != 1)
    }

    @Test func aWrongDatabaseNameFailsToConnectWithoutThePassword() throws {
        let server = try TestPostgresServer.shared()
        let error = try #require(throws: PostgresError.self) {
            _ = try PostgresConnection(connectionString: "postgresql://postgres:pw-hunter2@127.0.0.1:\(server.port)/no_such_database")
        }
        #expect(error.kind == .connectionFailed)
        #expect(error.message.contains("no_such_database"))
        #expect(!error.description.contains("hunter2"))
    }

    @Test func aMalformedConnectionStringIsMisuseAndHidesThePassword() throws {
        let error = try #require(throws: PostgresError.self) {
            _ = try PostgresConnection(connectionString: "host=localhost password hunter2")
        }
        #expect(error.kind == .misuse)
        #expect(!error.description.contains("hunter2"))
        #expect(throws: PostgresError.self) {
            _ = try PostgresPool(connectionString: "postgres://host/db?bogus_option=1&password=hunter2")
        }
    }

    @Test("A quote in a malformed URL's password does not let the password through")
    func aQuoteInAMalformedURLsPasswordStaysHidden() throws {
        let error = try #require(throws: PostgresError.self) {
            _ = try PostgresConnection(connectionString: "postgresql://u:Se\"CrEt@[::1:1/db")
        }
        #expect(error.kind == .misuse)
        #expect(!error.description.contains("Se\""), "\(error)")
        #expect(!error.description.contains("CrEt"), "\(error)")
        #expect(error.description.contains("postgresql://u:***@[::1:1/db"), "\(error)")
    }

    @Test func aTerminatedBackendIsAnUnavailableConnectionLoss() throws {
        try withTestConnection { connection, url throws in
            let killer = try PostgresConnection(connectionString: url)
            defer { killer.close() }
            let terminated: Bool? = try killer.fetchValue("SELECT pg_terminate_backend($1)", connection.backendProcessID)
            #expect(terminated == true)
            let error = try #require(throws: PostgresError.self) {
                try connection.execute("SELECT $1::int", 1)
            }
            #expect(error.isUnavailable)
            #expect(connection.isBroken)
        }
    }

    @Test func aClosedConnectionThrowsMisuse() throws {
        try withTestConnection { connection, _ throws in
            connection.close()
            connection.close()
            #expect(connection.isClosed)
            let error = try #require(throws: PostgresError.self) { try connection.execute(sql: "SELECT 1") }
            #expect(error.kind == .misuse)
        }
    }
}

@Suite("Password redaction")
struct RedactionTests {
    @Test(arguments: [
        ("postgres://shop:s3cret@db.example:5432/shop", "postgres://shop:***@db.example:5432/shop"),
        ("postgresql://shop:p%40ss@db/shop?sslmode=require", "postgresql://shop:***@db/shop?sslmode=require"),
        ("postgres://shop@db/shop?password=s3cret&sslmode=require", "postgres://shop@db/shop?password=***&sslmode=require"),
        ("postgres://shop:a@b@db/shop", "postgres://shop:***@db/shop"),
        ("POSTGRES://db/shop", "POSTGRES://db/shop"),
        ("postgres://shop:@db/shop", "postgres://shop:***@db/shop"),
        ("host=db user=shop password=s3cret dbname=shop", "host=db user=shop password=*** dbname=shop"),
        ("host=db password = 'two words\\' s3cret' dbname=shop", "host=db password = *** dbname=shop"),
        ("PASSWORD=s3cret", "PASSWORD=***"),
        ("host=db dbname=shop", "host=db dbname=shop"),
        ("host=db password 's3cret", "(malformed connection string)"),
        ("postgres://shop:pa?ss@db/shop", "postgres://shop:***@db/shop"),
        ("postgres://shop:pa?ss@db/shop?sslmode=require&password=x", "postgres://shop:***@db/shop?sslmode=require&password=***"),
        ("postgres://shop:p#ss@db:5432/shop", "postgres://shop:***@db:5432/shop"),
        ("postgres://shop:pa/ss@db/shop", "postgres://shop:***@db/shop"),
        ("postgres://shop:p%3Fs%23s%2F@db/shop", "postgres://shop:***@db/shop"),
        ("postgres://db/shop?user=a@b&password=s3cret", "postgres://db/shop?user=a@b&password=***"),
        ("postgres://[::1]:5432/shop?pass%77ord=s3cret", "postgres://[::1]:5432/shop?pass%77ord=***"),
    ])
    func passwordsAreRedacted(input: String, expected: String) {
        #expect(PostgresConnectionString.redactingPassword(input) == expected)
    }

    /// Passwords libpq reads from a URL as written (it ends the userinfo at the first "@"),
    /// and ones it reads only percent-encoded, in the places a URL may carry one; the last two
    /// hold a raw "@" or "/", which libpq misreads, but whose pieces must not show either.
    static let passwords = ["pa?ss", "p?a?s", "p#ss", "p:ss", "?x?", "#", "a?b#c:d", "s%3Fcr%40t%2F", "%25%3F%40%23%2F", "a?b#c%40d%2Fe", "p@ss", "pa/ss"]

    @Test("No password libpq accepts, with ?, @, #, / or %-escapes, survives redaction anywhere in a URL", arguments: passwords)
    func everyPasswordIsHidden(password: String) {
        let urls = [
            "postgres://shop:\(password)@db.example:5432/shop",
            "postgresql://shop:\(password)@db.example/shop?sslmode=require&application_name=x",
            "postgres://:\(password)@db/shop",
            "postgres://shop@db/shop?password=\(password)",
            "postgres://shop@db/shop?sslmode=disable&password=\(password)&connect_timeout=2",
            "postgres://shop:\(password)@[::1]:5432/shop?password=\(password)",
        ]
        for url in urls {
            let redacted = PostgresConnectionString.redactingPassword(url)
            #expect(!redacted.contains(password), "\(url) → \(redacted)")
            #expect(redacted.contains("***"), "\(url) → \(redacted)")
            #expect(redacted.contains("shop"), "the rest still shows: \(url) → \(redacted)")
        }
    }

    @Test("A malformed URL's error never shows a password holding ?, @, #, / or %-escapes",
          arguments: passwords.filter { !$0.contains("@") && !$0.contains("/") })
    func malformedURLErrorsHidePasswords(password: String) throws {
        for url in ["postgresql://u:\(password)@[::1:1/db", "postgres://u:\(password)@db/shop?bogus_option=1", "postgres://u@db/shop?bogus=1&password=\(password)"] {
            let error = try #require(throws: PostgresError.self) { _ = try PostgresConnection(connectionString: url) }
            #expect(!error.description.contains(password), "\(url): \(error)")
        }
    }

    @Test func urlsAreRecognised() {
        #expect(PostgresConnectionString.isURL("postgres://db/shop"))
        #expect(PostgresConnectionString.isURL("PostgreSQL://db/shop"))
        #expect(!PostgresConnectionString.isURL("quickcart.sqlite"))
        #expect(!PostgresConnectionString.isURL("host=db"))
    }
}
