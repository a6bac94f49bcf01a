import SQLite
import Testing

@Suite("Typed binding and reading")
struct ValueRoundTripTests {
    /// Stores `value` in an untyped column (no affinity, so nothing is coerced) and reads
    /// it back as the same Swift type.
    private func roundTrip<T: DatabaseValueConvertible & Equatable>(_ value: T, in db: Database) throws -> T {
        try db.execute("DELETE FROM box")
        try db.execute("INSERT INTO box (v) VALUES (?)", [value])
        let row = try #require(try db.fetchOne("SELECT v FROM box"))
        return try row.get(0)
    }

    private func withBox(_ body: (Database) throws -> Void) throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE box (v)")
            try body(db)
        }
    }

    @Test func integers() throws {
        try withBox { db throws in
            for value in [0, 1, -1, 42, Int.min, Int.max] {
                #expect(try roundTrip(value, in: db) == value)
            }
            for value in [Int64.min, Int64.max, 0] {
                #expect(try roundTrip(value, in: db) == value)
            }
            #expect(try roundTrip(Int32.min, in: db) == Int32.min)
            #expect(try roundTrip(Int16.max, in: db) == Int16.max)
            #expect(try roundTrip(Int8.min, in: db) == Int8.min)
            #expect(try roundTrip(UInt32.max, in: db) == UInt32.max)
            #expect(try roundTrip(UInt16.max, in: db) == UInt16.max)
            #expect(try roundTrip(UInt8.max, in: db) == UInt8.max)
            #expect(try db.fetchValue("SELECT typeof(v) FROM box") == "integer")
        }
    }

    @Test func floatingPoint() throws {
        try withBox { db throws in
            for value in [0.0, -0.5, Double.pi, 1e300, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude] {
                #expect(try roundTrip(value, in: db) == value)
            }
            #expect(try roundTrip(Float(1.25), in: db) == 1.25)
            #expect(try db.fetchValue("SELECT typeof(v) FROM box") == "real")
        }
    }

    @Test func booleans() throws {
        try withBox { db throws in
            #expect(try roundTrip(true, in: db) == true)
            #expect(try roundTrip(false, in: db) == false)
            #expect(try db.fetchValue("SELECT v FROM box", as: Int.self) == 0)
        }
    }

    @Test(arguments: ["", "plain", "ünïcödé ✓ 日本語 🛒👩‍👩‍👧", "embedded\0nul", String(repeating: "x", count: 100_000)])
    func strings(value: String) throws {
        try withBox { db throws in
            #expect(try roundTrip(value, in: db) == value)
            #expect(try db.fetchValue("SELECT typeof(v) FROM box") == "text", "an empty string must not become NULL")
            #expect(try db.fetchValue("SELECT length(CAST(v AS BLOB)) FROM box") == value.utf8.count)
        }
    }

    @Test(arguments: [[], [0], [0, 0, 0], [1, 0, 2, 0], Array(0...255)] as [[UInt8]])
    func blobs(value: [UInt8]) throws {
        try withBox { db throws in
            #expect(try roundTrip(value, in: db) == value)
            #expect(try db.fetchValue("SELECT typeof(v) FROM box") == "blob", "an empty blob must not become NULL")
            #expect(try db.fetchValue("SELECT length(v) FROM box") == value.count)
        }
    }

    @Test func nullThroughOptionals() throws {
        try withBox { db throws in
            #expect(try roundTrip(Int?.none, in: db) == nil)
            #expect(try db.fetchValue("SELECT typeof(v) FROM box") == "null")
            #expect(try roundTrip(String?.none, in: db) == nil)
            #expect(try roundTrip([UInt8]?.none, in: db) == nil)
            #expect(try roundTrip(Optional(7), in: db) == 7)
            #expect(try roundTrip(Optional(""), in: db) == "")

            // A literal nil argument binds NULL too.
            try db.execute("DELETE FROM box")
            try db.execute("INSERT INTO box (v) VALUES (?)", [nil])
            #expect(try db.fetchValue("SELECT v IS NULL FROM box") == true)
        }
    }

    @Test(arguments: [
        .null, .integer(.min), .integer(.max), .real(-2.5), .text(""), .text("ü"), .blob([]), .blob([0, 255]),
    ] as [DatabaseValue])
    func databaseValuesThroughArgumentArrays(value: DatabaseValue) throws {
        try withBox { db throws in
            try db.execute("INSERT INTO box (v) VALUES (?)", StatementArguments([value]))
            #expect(try db.fetchValue("SELECT v FROM box") ?? .null == value)
            #expect(try db.fetchValue("SELECT typeof(v) FROM box") == value.storageClass)
        }
    }

    @Test func literalsInArgumentArrays() throws {
        try withTemporaryDatabase { db, _ throws in
            let row = try #require(try db.fetchAll("SELECT ?, ?, ?, ?, ?", StatementArguments([1, 2.5, "three", true, .null])).first)
            #expect(row.values == [.integer(1), .real(2.5), .text("three"), .integer(1), .null])
        }
    }

    @Test func literalsStoreWhatTheirSwiftTypesStore() {
        let literals: [DatabaseValue] = [7, 2.5, "seven", true]
        #expect(literals == [.integer(7), .real(2.5), .text("seven"), .integer(1)])
        #expect(literals == [7.databaseValue, 2.5.databaseValue, "seven".databaseValue, true.databaseValue])
    }

    @Test func rawRepresentableTypesConvertThroughTheirRawValue() throws {
        enum Status: String, DatabaseValueConvertible {
            case open, paid
        }
        try withBox { db throws in
            #expect(try roundTrip(Status.paid, in: db) == .paid)
            #expect(try db.fetchValue("SELECT v FROM box") == "paid")
            try db.execute("UPDATE box SET v = 'refunded'")
            let error = #expect(throws: RowDecodingError.self) {
                _ = try db.fetchValue("SELECT v FROM box", as: Status.self)
            }
            #expect(error?.reason == .typeMismatch(found: "text"))
        }
    }

    @Test func conversionsAreStrict() throws {
        try withTemporaryDatabase { db, _ throws in
            let row = try #require(try db.fetchOne("SELECT 1, 2.5, 'text', x'00', NULL, 300"))
            #expect(try row.double(0) == 1.0, "integers widen to Double")
            #expect(throws: RowDecodingError.self) { try row.int(1) }
            #expect(throws: RowDecodingError.self) { try row.int(2) }
            #expect(throws: RowDecodingError.self) { try row.string(0) }
            #expect(throws: RowDecodingError.self) { try row.string(3) }
            #expect(try row.bytes(2) == Array("text".utf8), "text reads as its UTF-8 bytes")
            #expect(throws: RowDecodingError.self) { try row.get(5, as: Int8.self) }
            #expect(try row.get(5, as: Int16.self) == 300)

            let null = #expect(throws: RowDecodingError.self) { try row.int(4) }
            #expect(null?.reason == .unexpectedNull)
            #expect(try row.get(4, as: Int?.self) == nil)
            let mismatch = #expect(throws: RowDecodingError.self) { try row.get(2, as: Int?.self) }
            #expect(mismatch?.reason == .typeMismatch(found: "text"))
        }
    }
}
