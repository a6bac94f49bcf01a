import SQLite
import Testing

@Suite("Rows and fetching")
struct RowTests {
    @Test func accessByIndexNameAndSubscript() throws {
        try withTemporaryDatabase { db, _ throws in
            let row = try #require(try db.fetchOne("SELECT 7 AS id, 'Ada' AS Name, 2.5 AS price, x'0102' AS data, 1 AS flag"))
            #expect(row.count == 5)
            #expect(row.columnNames == ["id", "Name", "price", "data", "flag"])
            #expect(try row.int(0) == 7)
            #expect(try row.int64("id") == 7)
            #expect(try row.string("Name") == "Ada")
            #expect(try row.string("name") == "Ada", "names are case-insensitive, as in SQL")
            #expect(try row.double("price") == 2.5)
            #expect(try row.bytes("data") == [1, 2])
            #expect(try row.bool("flag"))
            #expect(try row[0] as Int == 7)
            #expect(try row["Name"] as String == "Ada")
            #expect(try row.get(2) as Double == 2.5)
            #expect(try !row.isNull(0))
        }
    }

    @Test func badColumnsThrowDescriptiveErrorsWithoutValues() throws {
        try withTemporaryDatabase { db, _ throws in
            let row = try #require(try db.fetchOne("SELECT 'secret-value' AS token"))
            let outOfRange = #expect(throws: RowDecodingError.self) { try row.int(3) }
            #expect(outOfRange?.reason == .indexOutOfRange)
            let unknown = #expect(throws: RowDecodingError.self) { try row.string("nope") }
            #expect(unknown?.reason == .columnNotFound)
            let mismatch = #expect(throws: RowDecodingError.self) { try row.int("token") }
            #expect(mismatch?.description == #"cannot read column 0 "token" as Int: found text"#)
            #expect(mismatch?.description.contains("secret-value") == false)
        }
    }

    @Test func duplicateColumnNamesResolveToTheLeftmost() throws {
        try withTemporaryDatabase { db, _ throws in
            let row = try #require(try db.fetchOne("SELECT 1 AS id, 2 AS id"))
            #expect(try row.int("id") == 1)
            #expect(try row.int(1) == 2)
        }
    }

    @Test func fetchAllMapsEveryRowInOrder() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            for name in ["a", "b", "c"] {
                try db.execute("INSERT INTO t (name) VALUES (?)", [name])
            }
            let names = try db.fetchAll("SELECT name FROM t WHERE id >= ? ORDER BY id", [2]) { try $0.string(0) }
            #expect(names == ["b", "c"])
            let rows = try db.fetchAll("SELECT id, name FROM t ORDER BY id")
            #expect(try rows.map { try $0.string("name") } == ["a", "b", "c"])
            #expect(try db.fetchAll("SELECT name FROM t WHERE id > ?", [10]) { $0 }.isEmpty)
        }
    }

    @Test func fetchOneAndFetchValueReturnNilWithoutARow() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            #expect(try db.fetchOne("SELECT x FROM t") == nil)
            #expect(try db.fetchValue("SELECT x FROM t", as: Int.self) == nil)
            #expect(try db.fetchOne("SELECT x FROM t") { try $0.int(0) } == nil)
            try db.execute("INSERT INTO t VALUES (NULL)")
            #expect(try db.fetchValue("SELECT x FROM t", as: Int.self) == nil, "NULL reads as nil")
        }
    }

    @Test func mapErrorsStopTheQueryAndAreRethrown() throws {
        try withTemporaryDatabase { db, _ throws in
            var seen = 0
            #expect(throws: TestFailure(reason: "stop")) {
                _ = try db.fetchAll(Self.oneToHundred) { row in
                    seen += 1
                    if try row.int(0) == 3 { throw TestFailure(reason: "stop") }
                    return 0
                }
            }
            #expect(seen == 3)
        }
    }

    @Test func unfinishedQueriesReleaseTheirReadSnapshot() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            for x in 1...10 {
                try db.execute("INSERT INTO t VALUES (?)", [x])
            }
            #expect(try db.fetchOne("SELECT x FROM t ORDER BY x") { try $0.int(0) } == 1)
            _ = try? db.fetchAll(Self.oneToHundred) { _ in throw TestFailure(reason: "stop") }

            // A TRUNCATE checkpoint must wait for every reader; it reports busy = 1 if a
            // statement left half-read still pinned a snapshot of the WAL.
            let other = try Database(path: path, configuration: .init(busyTimeout: .milliseconds(200)))
            defer { other.close() }
            let checkpointBusy = { try other.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)") { try $0.int(0) } }
            #expect(try checkpointBusy() == 0)

            // The probe does see a reader that is really left open.
            try db.execute("INSERT INTO t VALUES (11)")
            let open = try db.makeStatement(sql: "SELECT x FROM t")
            #expect(try open.step())
            #expect(try checkpointBusy() == 1)
            open.reset()
            #expect(try checkpointBusy() == 0)
        }
    }

    private static let oneToHundred = """
        WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 100)
        SELECT value FROM n
        """

    @Test func theSameQueryCanRunInsideItsOwnMapClosure() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
            let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
            let pairs = try db.fetchAll(sql, [1]) { row in
                let x = try row.int(0)
                let count = try db.fetchAll(sql, [x]) { $0 }.count
                return [x, count]
            }
            #expect(pairs == [[1, 3], [2, 2], [3, 1]])
        }
    }

    @Test func rowsOutliveTheirStatement() throws {
        try withTemporaryDatabase { db, _ throws in
            let rows = try db.fetchAll("SELECT 'first' UNION ALL SELECT 'second'")
            _ = try db.fetchAll("SELECT 'other', 'columns'")
            #expect(try rows.map { try $0.string(0) } == ["first", "second"])
        }
    }
}
