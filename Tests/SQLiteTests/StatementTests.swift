import SQLite
import Testing

@Suite("Prepared statements and the statement cache")
struct StatementTests {
    @Test func theSameSQLReturnsTheSameCachedStatement() throws {
        try withTemporaryDatabase { db, _ throws in
            let sql = "SELECT ? + 1"
            let first = try db.cachedStatement(sql: sql)
            #expect(try db.cachedStatement(sql: sql) === first)
            #expect(try db.cachedStatement(sql: "SELECT ? + 2") !== first)

            // The convenience methods go through the cache too.
            #expect(try db.fetchValue(sql, [41]) == 42)
            #expect(try db.cachedStatement(sql: sql) === first)
            #expect(try db.makeStatement(sql: sql) !== first)
        }
    }

    @Test func bindingsDoNotLeakIntoTheNextUse() throws {
        try withTemporaryDatabase { db, _ throws in
            let sql = "SELECT ?, ?"
            let statement = try db.cachedStatement(sql: sql)
            try statement.bind(["secret", 1])
            #expect(try statement.step())
            #expect(try statement.row().string(0) == "secret")

            // Reused without binding: every parameter is back to NULL, and the statement
            // starts from the beginning.
            let reused = try db.cachedStatement(sql: sql)
            #expect(reused === statement)
            #expect(try reused.step())
            #expect(reused.row().values == [.null, .null])
            #expect(try !reused.step())
            reused.reset()

            // The convenience API refuses a missing argument instead of binding NULL.
            let error = #expect(throws: SQLiteError.self) {
                _ = try db.fetchAll(sql, ["only one"])
            }
            #expect(error?.code == .misuse)
            #expect(error?.message.contains("takes 2 arguments, but 1 were given") == true)
        }
    }

    @Test func manualStepping() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            let insert = try db.makeStatement(sql: "INSERT INTO t (name) VALUES (:name)")
            #expect(insert.parameterCount == 1)
            #expect(insert.columnCount == 0)
            #expect(!insert.isReadOnly)
            for name in ["x", "y"] {
                try insert.bind(.text(name), named: ":name")
                #expect(try !insert.step())
                insert.reset()
            }
            #expect(throws: SQLiteError.self) { try insert.bind(.null, named: ":missing") }
            #expect(throws: SQLiteError.self) { try insert.bind(.null, at: 2) }

            let select = try db.cachedStatement(sql: "SELECT id, name AS label FROM t ORDER BY id")
            #expect(select.isReadOnly)
            #expect(select.columnNames == ["id", "label"])
            var labels: [String] = []
            while try select.step() {
                labels.append(try select.row().string("label"))
            }
            select.reset()
            #expect(labels == ["x", "y"])
            #expect(try select.fetchAll { try $0.int(0) } == [1, 2])
            #expect(try select.fetchOne { try $0.string(1) } == "x")
        }
    }

    @Test func theCacheIsBoundedByItsCapacity() throws {
        try withTemporaryDatabase(configuration: .init(statementCacheCapacity: 2)) { db, _ throws in
            let first = try db.cachedStatement(sql: "SELECT 1")
            _ = try db.cachedStatement(sql: "SELECT 2")
            #expect(try db.cachedStatement(sql: "SELECT 1") === first)
            _ = try db.cachedStatement(sql: "SELECT 3")
            #expect(try db.cachedStatement(sql: "SELECT 1") !== first, "the full cache was emptied")
            // A statement still held by the caller keeps working after eviction.
            #expect(try first.fetchOne { try $0.int(0) } == 1)
        }
    }

    @Test func cachedStatementsAreFinalizedOnClose() throws {
        try withTemporaryDatabase { db, _ throws in
            let cached = try db.cachedStatement(sql: "SELECT 1")
            db.close()
            let error = #expect(throws: SQLiteError.self) { try cached.step() }
            #expect(error?.code == .misuse)
            #expect(cached.columnCount == 0)
        }
    }

    @Test func aStatementMayOutliveItsDatabase() throws {
        var statement: Statement?
        try withTemporaryDirectory { directory throws in
            let db = try Database(path: directory + "/outlive.sqlite")
            statement = try db.makeStatement(sql: "SELECT 1")
        }
        // The Database is gone; the statement fails cleanly, and releasing it frees the
        // connection that sqlite3_close_v2 kept for it.
        #expect(throws: SQLiteError.self) { try statement?.step() }
        statement = nil
    }
}
