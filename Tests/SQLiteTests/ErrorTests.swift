import SQLite
import Testing

@Suite("Errors")
struct ErrorTests {
    private static let schema = """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL UNIQUE,
            age INTEGER CHECK (age >= 0)
        );
        """

    @Test func errorsCarryCodesMessageAndSQLButNeverBoundValues() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: Self.schema)
            let sql = "INSERT INTO users (email, age) VALUES (?, ?)"
            try db.execute(sql, ["hunter2-secret@example.com", 30])

            let error = try #require(#expect(throws: SQLiteError.self) {
                try db.execute(sql, ["hunter2-secret@example.com", 31])
            })
            #expect(error.code == .constraint)
            #expect(error.extendedCode == .constraintUnique)
            #expect(error.message == "UNIQUE constraint failed: users.email")
            #expect(error.sql == sql)
            #expect(error.isConstraintViolation)
            #expect(!error.isBusy && !error.isReadOnly && !error.isFull)
            #expect(!error.description.contains("hunter2"))
            #expect(!String(reflecting: error).contains("hunter2"))
            #expect(error.description == "SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: users.email — SQL: \(sql)")
        }
    }

    @Test func codesWorkAsCatchPatterns() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: Self.schema)
            func failure(_ sql: String, _ arguments: [DatabaseValue]) -> String {
                do {
                    try db.execute(sql, StatementArguments(arguments))
                    return "none"
                } catch SQLiteError.constraintUnique {
                    return "unique"
                } catch SQLiteError.constraintNotNull {
                    return "not null"
                } catch SQLiteError.constraint {
                    return "other constraint"
                } catch SQLiteError.error {
                    return "generic"
                } catch {
                    return "unexpected \(error)"
                }
            }
            #expect(failure("INSERT INTO users (email) VALUES (?)", ["a@b"]) == "none")
            #expect(failure("INSERT INTO users (email) VALUES (?)", ["a@b"]) == "unique")
            #expect(failure("INSERT INTO users (email) VALUES (?)", [.null]) == "not null")
            #expect(failure("INSERT INTO users (email, age) VALUES (?, ?)", ["c@d", -1]) == "other constraint")
            #expect(failure("INSERT INTO nowhere VALUES (?)", [1]) == "generic")
            #expect(!(SQLiteError.constraint ~= TestFailure(reason: "not SQLite")))
        }
    }

    @Test func extendedCodesOfOtherConstraints() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: Self.schema)
            let check = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO users (email, age) VALUES (?, ?)", ["x", -5])
            }
            #expect(check?.extendedCode == .constraintCheck)
            try db.execute("INSERT INTO users (id, email) VALUES (?, ?)", [1, "y"])
            let primaryKey = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO users (id, email) VALUES (?, ?)", [1, "z"])
            }
            #expect(primaryKey?.extendedCode == .constraintPrimaryKey)
            #expect(primaryKey?.extendedCode.primary == .constraint)
        }
    }

    @Test func syntaxErrorsCarryTheSQL() throws {
        try withTemporaryDatabase { db, _ throws in
            let error = #expect(throws: SQLiteError.self) {
                try db.execute("SELEKT 1")
            }
            #expect(error?.code == .error)
            #expect(error?.message.contains("syntax error") == true)
            #expect(error?.sql == "SELEKT 1")
        }
    }

    @Test func lockedDatabaseIsRecognisedAsBusy() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            let impatient = try Database(path: path, configuration: .init(busyTimeout: .zero))
            defer { impatient.close() }
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (1)")
                let error = #expect(throws: SQLiteError.self) {
                    try impatient.inTransaction { try impatient.execute("INSERT INTO t VALUES (2)") }
                }
                #expect(error?.isBusy == true)
                #expect(error?.code == .busy)
                #expect(error?.message == "database is locked")
                // WAL: the reader is not blocked by the open write transaction.
                #expect(try impatient.fetchValue("SELECT count(*) FROM t") == 0)
            }
            #expect(try impatient.fetchValue("SELECT count(*) FROM t") == 1)
        }
    }

    @Test func readOnlyConnectionsAreRecognised() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            let reader = try Database(path: "file:\(path)?mode=ro")
            defer { reader.close() }
            let error = #expect(throws: SQLiteError.self) {
                try reader.execute("INSERT INTO t VALUES (1)")
            }
            #expect(error?.isReadOnly == true)
            #expect(error?.code == .readOnly)
        }
    }

    @Test func aFullDatabaseIsRecognised() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (data BLOB)")
            let pages: Int = try #require(try db.fetchValue("PRAGMA page_count"))
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 4)")
            let error = #expect(throws: SQLiteError.self) {
                try db.inTransaction {
                    for _ in 0..<100 {
                        try db.execute("INSERT INTO t VALUES (?)", [[UInt8](repeating: 7, count: 4096)])
                    }
                }
            }
            #expect(error?.isFull == true)
            #expect(error?.code == .full)
            #expect(!db.isInTransaction, "the transaction was rolled back")
            #expect(try db.fetchValue("SELECT count(*) FROM t") == 0)
        }
    }
}
