import Postgres
import Testing

@Suite("Values")
struct ValueRoundTripTests {
    @Test func integersRoundTripThroughBigint() throws {
        try withTestConnection { connection, _ throws in
            for value: Int64 in [0, 1, -1, 42, .max, .min] {
                let read: Int64? = try connection.fetchValue("SELECT $1::bigint", value)
                #expect(read == value)
            }
            let small: Int? = try connection.fetchValue("SELECT $1::integer", 7)
            #expect(small == 7)
            let typed = try #require(try connection.fetchOne("SELECT 5::smallint, 6::integer, 7::bigint"))
            #expect(typed.values == [.integer(5), .integer(6), .integer(7)])
        }
    }

    @Test func textRoundTripsIncludingEmptyAndUnicode() throws {
        try withTestConnection { connection, _ throws in
            for text in ["", "plain", "Zoë's \"quoted\" 'tent' — ½ 🏕️", String(repeating: "x", count: 100_000), "a\\b\nc"] {
                let read: String? = try connection.fetchValue("SELECT $1::text", text)
                #expect(read == text)
            }
        }
    }

    @Test func booleansRoundTrip() throws {
        try withTestConnection { connection, _ throws in
            #expect(try connection.fetchValue("SELECT $1::boolean", true) == true)
            #expect(try connection.fetchValue("SELECT $1::boolean", false) == false)
            #expect(try connection.fetchOne("SELECT 1 = 1")?.values == [.bool(true)])
        }
    }

    @Test func doublesRoundTripIncludingSpecialValues() throws {
        try withTestConnection { connection, _ throws in
            for value in [0.0, -0.5, 1.0 / 3.0, 1e300, -1e-300, .infinity, -.infinity, .pi] {
                let read: Double? = try connection.fetchValue("SELECT $1::double precision", value)
                #expect(read == value)
            }
            let nan: Double? = try connection.fetchValue("SELECT $1::double precision", Double.nan)
            #expect(nan?.isNaN == true)
        }
    }

    @Test func bytesRoundTripThroughBytea() throws {
        try withTestConnection { connection, _ throws in
            let all = (0...255).map { UInt8($0) }
            for bytes in [[], [0], all, Array(repeating: 0xFF, count: 10_000)] as [[UInt8]] {
                let read: [UInt8]? = try connection.fetchValue("SELECT $1::bytea", bytes)
                #expect(read == bytes)
            }
        }
    }

    @Test func nullsGoInAndComeOutForEveryType() throws {
        try withTestConnection { connection, _ throws in
            try connection.execute(sql: "CREATE TABLE t (i bigint, s text, b boolean, d double precision, x bytea)")
            let missing: String? = nil
            try connection.execute("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", nil, missing, nil, nil, nil)
            let row = try #require(try connection.fetchOne("SELECT i, s, b, d, x FROM t"))
            #expect(row.values == Array(repeating: .null, count: 5))
            #expect(try row.get(0) as Int? == nil)
            #expect(try row.get("s") as String? == nil)
            #expect(try row.isNull("x"))
            #expect(throws: PostgresRowDecodingError.self) { try row.int(0) }
            // No row and a NULL value both read as nil.
            #expect(try connection.fetchValue("SELECT i FROM t WHERE false", as: Int.self) == nil)
        }
    }

    @Test func numericIsExactAndSumOfBigintReadsAsInt() throws {
        try withTestConnection { connection, _ throws in
            try connection.execute(sql: "CREATE TABLE items (qty bigint); INSERT INTO items VALUES (3), (4)")
            // sum(bigint) is numeric in PostgreSQL.
            let total: Int? = try connection.fetchValue("SELECT sum(qty) FROM items")
            #expect(total == 7)
            let price = try #require(try connection.fetchOne("SELECT 12.50::numeric AS price"))
            #expect(price.values == [.numeric("12.50")])
            #expect(try price.string("price") == "12.50")
            #expect(try price.double("price") == 12.5)
            #expect(throws: PostgresRowDecodingError.self) { try price.int("price") }
        }
    }

    @Test func rowsReadByIndexAndCaseInsensitiveName() throws {
        try withTestConnection { connection, _ throws in
            let rows = try connection.fetchAll("SELECT n AS number, 'item ' || n AS label FROM generate_series(1, $1::int) AS n", 3)
            #expect(rows.count == 3)
            #expect(rows.first?.columnNames == ["number", "label"])
            #expect(try rows.map { try $0.int("number") } == [1, 2, 3])
            #expect(try rows[2].string("LABEL") == "item 3")
            #expect(throws: PostgresRowDecodingError.self) { try rows[0].string(5) }
            #expect(throws: PostgresRowDecodingError.self) { try rows[0].string("missing") }
            #expect(throws: PostgresRowDecodingError.self) { try rows[0].int("label") }
        }
    }

    @Test func literalsSendWhatTheirSwiftTypesSend() {
        let literals: [PostgresValue] = [7, 2.5, "seven", true]
        #expect(literals == [.integer(7), .double(2.5), .text("seven"), .bool(true)])
        #expect(literals == [7.postgresValue, 2.5.postgresValue, "seven".postgresValue, true.postgresValue])
    }

    @Test func rawRepresentableTypesConvertThroughTheirRawValue() throws {
        enum Status: String, PostgresValueConvertible {
            case open, paid
        }
        try withTestConnection { connection, _ throws in
            let status: Status? = try connection.fetchValue("SELECT $1::text", Status.paid)
            #expect(status == .paid)
            #expect(throws: PostgresRowDecodingError.self) {
                _ = try connection.fetchOne("SELECT 'shipped'") { row in try row.get(0, as: Status.self) }
            }
        }
    }

    @Test func parametersAreNeverInterpolated() throws {
        try withTestConnection { connection, _ throws in
            try connection.execute(sql: "CREATE TABLE users (name text)")
            let hostile = "x'); DROP TABLE users; --"
            #expect(try connection.execute("INSERT INTO users VALUES ($1)", hostile) == 1)
            #expect(try connection.fetchValue("SELECT name FROM users") == hostile)
            #expect(try connection.execute("UPDATE users SET name = $1 WHERE name <> $1", "y") == 1)
            #expect(try connection.execute("DELETE FROM users WHERE name = $1", "nobody") == 0)
        }
    }

    @Test func preparedStatementsAreReusedAndTheCacheStaysBounded() throws {
        var configuration = PostgresConnection.Configuration()
        configuration.statementCacheCapacity = 3
        let url = try makeTestDatabase()
        let connection = try PostgresConnection(connectionString: url, configuration: configuration)
        defer { connection.close() }
        let count = "SELECT count(*) FROM pg_prepared_statements"
        for round in 1...3 {
            #expect(try connection.fetchValue("SELECT $1::int + 1", round) == round + 1)
        }
        // The same text is prepared once, however often it runs.
        #expect(try connection.fetchValue(count) == 2)
        for offset in 0..<10 {
            #expect(try connection.fetchValue("SELECT $1::int + \(offset)", 1) == 1 + offset)
        }
        let prepared: Int = try connection.fetchValue(count) ?? 0
        #expect(prepared <= 3)
    }
}
