import SQLite
import Testing

@Suite("Rows read in place")
struct StatementRowTests {
    @Test func readsEveryStorageClassAsRowDoes() throws {
        try withTemporaryDatabase { db, _ throws in
            let sql = "SELECT 7 AS id, 'Ada' AS name, 2.5 AS price, x'0102' AS data, 1 AS flag, NULL AS note, 'ü€😀' AS word"
            let row = try #require(try db.fetchOne(sql))
            let read = try db.withFirstRow(sql) { current in
                #expect(current.count == 7)
                #expect(try current.int(0) == row.int(0))
                #expect(try current.int64(0) == 7)
                #expect(try current.string(1) == "Ada")
                #expect(try current.double(2) == 2.5)
                #expect(try current.double(0) == 7, "integers convert to Double")
                #expect(try current.bool(4))
                #expect(try current.isNull(5))
                #expect(try !current.isNull(1))
                #expect(try current.get(3, as: [UInt8].self) == [1, 2])
                #expect(try current.get(5, as: String?.self) == nil)
                #expect(try current.get(1, as: String?.self) == "Ada")
                #expect(try current.string(6) == "ü€😀")
                return try current.string(1)
            }
            #expect(read == "Ada")
        }
    }

    @Test func failuresThrowTheErrorsRowThrows() throws {
        try withTemporaryDatabase { db, _ throws in
            let sql = "SELECT 'secret-value' AS token, NULL AS note, 1.5 AS price"
            let row = try #require(try db.fetchOne(sql))
            try db.withFirstRow(sql) { current in
                let mismatch = #expect(throws: RowDecodingError.self) { try current.int(0) }
                #expect(mismatch?.description == #"cannot read column 0 "token" as Int: found text"#)
                #expect(mismatch?.description == (#expect(throws: RowDecodingError.self) { try row.int(0) })?.description)
                let null = #expect(throws: RowDecodingError.self) { try current.string(1) }
                #expect(null?.reason == .unexpectedNull)
                #expect(null?.columnName == "note")
                #expect((#expect(throws: RowDecodingError.self) { try current.int64(2) })?.reason == .typeMismatch(found: "real"))
                #expect((#expect(throws: RowDecodingError.self) { try current.bool(0) })?.reason == .typeMismatch(found: "text"))
                #expect((#expect(throws: RowDecodingError.self) { try current.double(0) })?.reason == .typeMismatch(found: "text"))
                #expect((#expect(throws: RowDecodingError.self) { try current.get(2, as: Int.self) })?.reason == .typeMismatch(found: "real"))
                #expect((#expect(throws: RowDecodingError.self) { try current.isNull(3) })?.reason == .indexOutOfRange)
                #expect((#expect(throws: RowDecodingError.self) { try current.string(-1) })?.reason == .indexOutOfRange)
            }
        }
    }

    @Test func forEachRowVisitsEveryRowInOrderAndStopsAtAnError() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            for name in ["a", "b", "c"] {
                try db.execute("INSERT INTO t (name) VALUES (?)", [name])
            }
            var names: [String] = []
            try db.forEachRow("SELECT name FROM t WHERE id >= ? ORDER BY id", [2]) { row in names.append(try row.string(0)) }
            #expect(names == ["b", "c"])

            var visited = 0
            #expect(throws: RowDecodingError.self) {
                try db.forEachRow("SELECT id, name FROM t ORDER BY id") { row in
                    visited += 1
                    _ = try row.int(visited == 2 ? 1 : 0)
                }
            }
            #expect(visited == 2)
            // The statement was reset: it runs again from the start, and holds no read lock.
            #expect(!db.isInTransaction)
            var ids: [Int] = []
            try db.forEachRow("SELECT id, name FROM t ORDER BY id") { row in ids.append(try row.int(0)) }
            #expect(ids == [1, 2, 3])
        }
    }

    @Test func withFirstRowAndFetchValueGiveNilWithoutARow() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, note TEXT)")
            #expect(try db.withFirstRow("SELECT id FROM t") { try $0.int(0) } == nil)
            #expect(try db.fetchValue("SELECT id FROM t", as: Int.self) == nil)
            try db.execute("INSERT INTO t (id, note) VALUES (?, ?)", [4, nil])
            #expect(try db.fetchValue("SELECT note FROM t", as: String.self) == nil, "NULL reads as nil")
            #expect(try db.fetchValue("SELECT id FROM t", as: Int.self) == 4)
            #expect(throws: RowDecodingError.self) { try db.fetchValue("SELECT 'x'", as: Int.self) }
        }
    }

    @Test func cachedStatementsAreFoundByTheirTextAcrossEvictions() throws {
        var configuration = Database.Configuration()
        configuration.statementCacheCapacity = 3
        try withTemporaryDatabase(configuration: configuration) { db, _ throws in
            // Texts freed and built again may reuse one another's memory: each must still run
            // its own statement, through cache evictions too.
            for round in 0..<4 {
                for value in 0..<10 {
                    let sql = "SELECT \(value) + \(round) AS value -- a text longer than fifteen bytes"
                    #expect(try db.fetchValue(sql, as: Int.self) == value + round)
                    #expect(try db.fetchValue(sql, as: Int.self) == value + round)
                }
            }
            let literal = "SELECT 'the same literal, again and again' AS value"
            for _ in 0..<3 {
                #expect(try db.fetchValue(literal, as: String.self) == "the same literal, again and again")
            }
            db.close()
            #expect(throws: SQLiteError.self) { try db.fetchValue(literal, as: String.self) }
        }
    }

    @Test func statementsWhoseTextsShareLengthAndEndsStayApart() throws {
        try withTemporaryDatabase { db, _ throws in
            // The cache hashes only a text's length and ends: these differ in the middle only.
            let padding = String(repeating: " ", count: 40)
            let texts = (1...3).map { "SELECT \(padding)\($0)\(padding) AS value" }
            #expect(Set(texts.map(\.utf8.count)).count == 1)
            for _ in 0..<2 {
                #expect(try texts.map { try db.fetchValue($0, as: Int.self) } == [1, 2, 3])
            }
        }
    }
}
