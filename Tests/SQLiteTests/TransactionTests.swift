import SQLite
import Testing

@Suite("Transactions")
struct TransactionTests {
    private func withAccounts(_ body: (Database, String) throws -> Void) throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute(sql: """
                CREATE TABLE accounts (name TEXT PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0));
                INSERT INTO accounts VALUES ('alice', 100), ('bob', 0);
                """)
            try body(db, path)
        }
    }

    private func balances(_ db: Database) throws -> [Int] {
        try db.fetchAll("SELECT balance FROM accounts ORDER BY name") { try $0.int(0) }
    }

    @Test func commitsWhenTheBodyReturns() throws {
        try withAccounts { db, path throws in
            let moved = try db.inTransaction {
                try db.execute("UPDATE accounts SET balance = balance - ? WHERE name = 'alice'", [30])
                try db.execute("UPDATE accounts SET balance = balance + ? WHERE name = 'bob'", [30])
                #expect(db.isInTransaction)
                return 30
            }
            #expect(moved == 30)
            #expect(!db.isInTransaction)
            let other = try Database(path: path)
            defer { other.close() }
            #expect(try balances(other) == [70, 30], "committed data is visible to other connections")
        }
    }

    @Test func rollsBackAndRethrowsWhenTheBodyThrows() throws {
        try withAccounts { db, _ throws in
            #expect(throws: TestFailure(reason: "payment declined")) {
                try db.inTransaction {
                    try db.execute("UPDATE accounts SET balance = balance + 50 WHERE name = 'bob'")
                    throw TestFailure(reason: "payment declined")
                }
            }
            #expect(!db.isInTransaction)
            #expect(try balances(db) == [100, 0])
        }
    }

    @Test func rollsBackWhenAStatementFails() throws {
        try withAccounts { db, _ throws in
            let error = #expect(throws: SQLiteError.self) {
                try db.inTransaction {
                    try db.execute("UPDATE accounts SET balance = balance + 500 WHERE name = 'bob'")
                    try db.execute("UPDATE accounts SET balance = balance - 500 WHERE name = 'alice'")
                }
            }
            #expect(error?.extendedCode == .constraintCheck)
            #expect(try balances(db) == [100, 0])
        }
    }

    @Test func immediateIsTheDefaultAndTakesTheWriteLockAtBegin() throws {
        try withAccounts { db, path throws in
            let other = try Database(path: path, configuration: .init(busyTimeout: .zero))
            defer { other.close() }
            try db.inTransaction {
                // Nothing written yet, but the write lock is already held.
                let error = #expect(throws: SQLiteError.self) { try other.execute("BEGIN IMMEDIATE") }
                #expect(error?.isBusy == true)
            }
            try db.inTransaction(.deferred) {
                // A deferred transaction takes no lock until it reads or writes.
                try other.execute("BEGIN IMMEDIATE")
                try other.execute("ROLLBACK")
            }
        }
    }

    @Test func readSeesOneSnapshotWhileOthersCommit() throws {
        try withAccounts { db, path throws in
            let writer = try Database(path: path)
            defer { writer.close() }
            let (before, after) = try db.read {
                let before = try balances(db)
                try writer.execute("UPDATE accounts SET balance = 999 WHERE name = 'bob'")
                return (before, try balances(db))
            }
            #expect(before == after)
            #expect(try balances(db) == [100, 999])
        }
    }

    @Test func nestedTransactionsBecomeSavepoints() throws {
        try withAccounts { db, _ throws in
            try db.inTransaction {
                try db.execute("UPDATE accounts SET balance = 1 WHERE name = 'bob'")
                #expect(throws: TestFailure(reason: "inner")) {
                    try db.inTransaction {
                        try db.execute("UPDATE accounts SET balance = 2 WHERE name = 'bob'")
                        throw TestFailure(reason: "inner")
                    }
                }
                #expect(try balances(db) == [100, 1], "only the inner work was undone")
                try db.inTransaction {
                    try db.execute("UPDATE accounts SET balance = 3 WHERE name = 'alice'")
                }
            }
            #expect(try balances(db) == [3, 1])
        }
    }

    @Test func beginFailureIsReported() throws {
        try withAccounts { db, path throws in
            let other = try Database(path: path, configuration: .init(busyTimeout: .milliseconds(50)))
            defer { other.close() }
            try db.execute("BEGIN IMMEDIATE")
            var ran = false
            let error = #expect(throws: SQLiteError.self) {
                try other.inTransaction { ran = true }
            }
            #expect(error?.code == .busy)
            #expect(!ran)
            try db.execute("ROLLBACK")
        }
    }
}
