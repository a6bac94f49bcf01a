import Postgres
import PostgresTesting
import Testing

/// Numbered parameters from the arguments: each interpolated value becomes the next `$1`, `$2`, …, bound, never text.
@Suite("Queries from interpolation")
struct QueryTests {
    @Test func valuesBecomeNumberedParametersAndFragmentsStayText() {
        let name: String? = nil
        let query: PostgresQuery = "INSERT INTO t (a, b, c) VALUES (\(7), \("x'); DROP TABLE t; --"), \(name)) ORDER BY \(sql: "a DESC")"
        #expect(query.sql == "INSERT INTO t (a, b, c) VALUES ($1, $2, $3) ORDER BY a DESC")
        #expect(query.arguments == [.integer(7), .text("x'); DROP TABLE t; --"), .null])
    }

    @Test func aQueryRunsWithItsValuesBound() throws {
        try withTestConnection { connection, _ throws in
            try connection.execute(sql: "CREATE TABLE notes (id bigint PRIMARY KEY, body text, extra text)")
            let body = "it's \"quoted\" $1"
            let extra: String? = nil
            #expect(try connection.execute(query: "INSERT INTO notes (id, body, extra) VALUES (\(Int64(1)), \(body), \(extra))") == 1)
            let rows = try connection.fetchAll(query: "SELECT body, extra IS NULL FROM notes WHERE id = \(Int64(1)) AND body = \(body)") { row in
                (try row.string(0), try row.bool(1))
            }
            #expect(rows.count == 1)
            #expect(rows.first?.0 == body && rows.first?.1 == true)
        }
    }
}
