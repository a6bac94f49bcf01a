import Dispatch
import Foundation
import QuickCart
import SQLite
import Synchronization
import Testing

/// `quickcart backup` and `restore` on SQLite: a copy made under a load of changes holds every
/// change acknowledged before it began; a restore refuses a database in use.
@Suite("Backup and restore")
struct BackupTests {
    /// The display name a session's profile page shows.
    static func displayName(_ browser: Browser) throws -> String? {
        let page = try browser.get("/profile")
        guard let range = page.text.range(of: #"name="display_name" value="([^"]*)""#, options: .regularExpression) else { return nil }
        return String(page.text[range].split(separator: "\"")[3])
    }

    @Test("A backup made while shoppers change things holds every change acknowledged before it began, and restores into a fresh server")
    func backupUnderLoad() throws {
        let directory = try TemporaryDirectory()
        let shop = try TestShop(directory: directory)
        let database = directory.path + "/quickcart.sqlite"
        let shoppers = (0..<4).map { _ in shop.browser() }
        for shopper in shoppers { _ = try shopper.get("/") }

        // Each shopper renames itself "step N", N counting up, and notes the last N acknowledged.
        let acknowledged = Mutex([Int](repeating: 0, count: shoppers.count))
        let stop = Atomic(false)
        let group = DispatchGroup()
        for (index, shopper) in shoppers.enumerated() {
            nonisolated(unsafe) let shopper = shopper
            DispatchQueue.global().async(group: group) {
                var step = 0
                while !stop.load(ordering: .relaxed), step < 5_000 {
                    step += 1
                    guard (try? shopper.post("/profile/name", form: [("display_name", "step \(step)")]).status) == 303 else { continue }
                    acknowledged.withLock { $0[index] = step }
                }
            }
        }
        while acknowledged.withLock({ $0.min() ?? 0 }) < 20 { usleep(5_000) }
        let beforeBackup = acknowledged.withLock { $0 }
        let copy = directory.path + "/copy.sqlite"
        let backup = OperatorRun(["backup", copy], database: database)
        let afterBackup = acknowledged.withLock { $0 }
        stop.store(true, ordering: .relaxed)
        group.wait()
        #expect(backup.status == 0, "\(backup.report)")
        #expect(backup.output.range(of: #"to .*copy\.sqlite: \d+ bytes, integrity check ok"#, options: .regularExpression) != nil, "\(backup.output)")
        #expect(zip(beforeBackup, afterBackup).contains { $0 < $1 }, "changes went on while the backup ran: \(beforeBackup) \(afterBackup)")
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"), "the copy stands alone")

        // A restore over the running shop's database is refused, and changes nothing.
        let refused = OperatorRun(["restore", copy], database: database)
        #expect(refused.status == 1)
        #expect(refused.report.contains("in use"), "\(refused.report)")
        let cookies = shoppers.map { $0.sessionCookie }
        shop.stop()

        let fresh = try TemporaryDirectory()
        let restoredDatabase = fresh.path + "/quickcart.sqlite"
        let restore = OperatorRun(["restore", copy], database: restoredDatabase)
        #expect(restore.status == 0, "\(restore.report)")
        let restored = try TestShop(directory: fresh)
        for (index, cookie) in cookies.enumerated() {
            let name = try #require(try Self.displayName(restored.browser(cookie: cookie)))
            let step = try #require(Int(name.dropFirst("step ".count)), "\(name)")
            #expect(step >= beforeBackup[index], "shopper \(index): acknowledged step \(beforeBackup[index]) before the backup, restored \(step)")
            #expect(step <= afterBackup[index] + 1, "shopper \(index): restored \(step), beyond what was sent by the backup's end")
        }
    }

    @Test("Restore replaces a stopped shop's database; a damaged or missing backup is refused and changes nothing")
    func restoreReplacesAndRefuses() throws {
        let directory = try TemporaryDirectory()
        let database = directory.path + "/quickcart.sqlite"
        var shop: TestShop? = try TestShop(directory: directory)
        let shopper = try #require(shop).browser()
        #expect(try shopper.post("/profile/name", form: [("display_name", "Before")]).status == 303)
        let copy = directory.path + "/copy.sqlite"
        #expect(OperatorRun(["backup", copy], database: database).status == 0)
        #expect(try shopper.post("/profile/name", form: [("display_name", "After")]).status == 303)
        shop?.stop()
        shop = nil

        let damaged = directory.path + "/damaged.sqlite"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        for offset in stride(from: 4096, to: bytes.count, by: 97) { bytes[offset] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: damaged))
        #expect(OperatorRun(["restore", damaged], database: database).status == 1)
        #expect(OperatorRun(["restore", directory.path + "/nothing.sqlite"], database: database).status == 1)
        #expect(OperatorRun(["restore"], database: database).status == 2, "restore needs a FILE")
        let unchanged = try TestShop(directory: directory)
        #expect(try Self.displayName(unchanged.browser(cookie: shopper.sessionCookie)) == "After")
        unchanged.stop()

        let replaced = OperatorRun(["restore", copy], database: database)
        #expect(replaced.status == 0 && replaced.output == "restored \(database) from \(copy)\n", "\(replaced.output)")
        let restored = try TestShop(directory: directory)
        #expect(try Self.displayName(restored.browser(cookie: shopper.sessionCookie)) == "Before")
        restored.stop()

        // Where there was no database (a new machine, or a mistyped --db), it says it made one.
        let elsewhere = directory.path + "/new-machine.sqlite"
        let made = OperatorRun(["restore", copy], database: elsewhere)
        #expect(made.status == 0 && made.output.hasSuffix("(a new file: there was no database there before)\n"), "\(made.output)")
        // A backup of a database that is not there names it from the root.
        let missing = OperatorRun(["backup", directory.path + "/other.sqlite"], database: "no-such-shop.sqlite")
        #expect(missing.report.contains("there is no database at \(FileManager.default.currentDirectoryPath)/no-such-shop.sqlite"), "\(missing.report)")
    }

    @Test("Restore names the order numbers the database replaced had and the backup has not: new orders are given them again")
    func restoreNamesNumbersGivenAgain() throws {
        let (directory, database) = try Self.stoppedShop()
        let placing = { (count: Int) throws -> [Int64] in
            var configuration = Configuration()
            configuration.databasePath = database
            configuration.resourcesPath = TestShop.repositoryRoot
            let storage = try Storage.open(configuration, connections: 2)
            defer { storage.close() }
            return try (0..<count).map { _ in try OrderExportTests.placeOrder(storage, ["camp-mug"], at: TestSessions.start) }
        }
        #expect(try placing(1) == [1])
        let backup = directory.path + "/orders-backup.sqlite"
        #expect(OperatorRun(["backup", backup], database: database).status == 0)
        #expect(try placing(2) == [2, 3])
        let run = OperatorRun(["restore", backup], database: database)
        #expect(run.status == 0, "\(run.report)")
        #expect(run.output == "restored \(database) from \(backup)\nnote: orders #2 to #3 are not in the backup (the database replaced had them), "
            + "and new orders will be given those numbers again: check payments and shoppers' messages that name them\n", "\(run.output)")
        #expect(try placing(1) == [2], "the note says what happens")
        let again = OperatorRun(["restore", backup], database: database)
        #expect(again.output == "restored \(database) from \(backup)\nnote: order #2 is not in the backup (the database replaced had it), "
            + "and new orders will be given that number again: check payments and shoppers' messages that name it\n", "\(again.output)")
        // Nothing to say when the backup has every order the database had.
        let same = OperatorRun(["restore", backup], database: database)
        #expect(same.output == "restored \(database) from \(backup)\n", "\(same.output)")
    }

    /// A folder holding a shop's database, made by serving it once, and the database's path.
    static func stoppedShop() throws -> (directory: TemporaryDirectory, database: String) {
        let directory = try TemporaryDirectory()
        try TestShop(directory: directory, inProcess: true).stop()
        return (directory, directory.path + "/quickcart.sqlite")
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    @Test("A backup is a rollback-journal file standing alone; restore reads a backup without changing it, even one that is not a database")
    func backupStandsAloneAndRestoreOnlyReadsIt() throws {
        let (directory, database) = try Self.stoppedShop()
        let copy = directory.path + "/copy.sqlite"
        let backup = OperatorRun(["backup", copy], database: database)
        #expect(backup.status == 0, "\(backup.report)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(bytes[18] == 1 && bytes[19] == 1, "header bytes 18 and 19 say rollback journal (1), not WAL (2): \(bytes[18]) \(bytes[19])")
        #expect(!Self.exists(copy + "-wal") && !Self.exists(copy + "-shm"))

        let restore = OperatorRun(["restore", copy], database: directory.path + "/restored.sqlite")
        #expect(restore.status == 0, "\(restore.report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == bytes, "the backup is as it was")
        #expect(!Self.exists(copy + "-wal") && !Self.exists(copy + "-shm"))

        let garbage = directory.path + "/garbage.sqlite"
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let refused = OperatorRun(["restore", garbage], database: database)
        #expect(refused.status == 1)
        #expect(!refused.report.contains("journal_mode"), "the backup is only read: \(refused.report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: garbage)) == Data("hello\n".utf8))
    }

    @Test("Backup refuses the running shop's database and the files beside it, by any name, even with --replace, and changes nothing")
    func backupRefusesTheDatabase() throws {
        let directory = try TemporaryDirectory()
        let shop = try TestShop(directory: directory, inProcess: true)
        let database = directory.path + "/quickcart.sqlite"
        let inode = try #require(FileManager.default.attributesOfItem(atPath: database)[.systemFileNumber] as? Int)
        let symbolic = directory.path + "/symbolic.sqlite"
        let hard = directory.path + "/hard.sqlite"
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: database)
        try FileManager.default.linkItem(atPath: database, toPath: hard)
        try FileManager.default.createDirectory(atPath: directory.path + "/folder", withIntermediateDirectories: false)
        let names = [
            database, database + "-wal", database + "-shm", database + "-journal", database + ".lock",
            directory.path + "/folder/../quickcart.sqlite", symbolic, hard,
        ]
        for name in names {
            for options in [[], ["--replace"]] {
                let run = OperatorRun(["backup", name] + options, database: database)
                #expect(run.status == 1, "\(name) \(options)")
                #expect(run.report.contains("a backup must go to another file"), "\(name) \(options): \(run.report)")
            }
        }
        #expect(try FileManager.default.attributesOfItem(atPath: database)[.systemFileNumber] as? Int == inode, "the database is the same file")
        #expect(!Self.exists(database + "-journal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".partial-") })
        #expect(try shop.browser().get("/").status == 200, "the shop still works on its database")
    }

    @Test("Restore refuses the database itself as the backup, by its name, a link or another path, either way round, and changes nothing")
    func restoreRefusesTheDatabaseItself() throws {
        let (directory, database) = try Self.stoppedShop()
        let symbolic = directory.path + "/symbolic.sqlite"
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: database)
        try FileManager.default.createDirectory(atPath: directory.path + "/folder", withIntermediateDirectories: false)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let cases = [
            (file: database, db: database), (file: symbolic, db: database), (file: directory.path + "/folder/../quickcart.sqlite", db: database),
            (file: database, db: symbolic),
        ]
        for (file, db) in cases {
            let run = OperatorRun(["restore", file], database: db)
            #expect(run.status == 1 && run.output.isEmpty, "\(file) --db \(db): \(run.output)")
            #expect(run.report == "quickcart: \(file) is the database itself (\(db)): a restore must come from a backup in another file\n", "\(run.report)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the database is as it was")
        #expect(!Self.exists(database + "-journal"))
    }

    @Test("Backup refuses an existing file or a folder, changing nothing; --replace replaces a file")
    func backupReplacesOnlyWhenTold() throws {
        let (directory, database) = try Self.stoppedShop()
        let precious = directory.path + "/precious.txt"
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: precious))
        let refused = OperatorRun(["backup", precious], database: database)
        #expect(refused.status == 1)
        #expect(refused.report.contains("\(precious) already exists") && refused.report.contains("--replace"), "\(refused.report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: precious)) == Data("hello\n".utf8))

        for options in [[], ["--replace"]] {
            let folder = OperatorRun(["backup", directory.path] + options, database: database)
            #expect(folder.status == 1)
            #expect(folder.report.contains("is a folder"), "\(folder.report)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".partial-") })

        let replaced = OperatorRun(["backup", precious, "--replace"], database: database)
        #expect(replaced.status == 0, "\(replaced.report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: precious)).starts(with: Data("SQLite format 3\0".utf8)))
        #expect(OperatorRun(["restore", precious, "--replace"], database: database).status == 2, "--replace is backup's")
    }

    @Test("Backup says a missing folder is missing, refuses an empty FILE as a usage error, and leaves no temporary file when it fails")
    func backupSaysWhatIsWrong() throws {
        let (directory, database) = try Self.stoppedShop()
        let missing = OperatorRun(["backup", directory.path + "/nowhere/x.sqlite"], database: database)
        #expect(missing.status == 1)
        #expect(missing.report == "quickcart: the folder \(directory.path)/nowhere does not exist\n", "\(missing.report)")
        let plain = directory.path + "/plain"
        try Data().write(to: URL(fileURLWithPath: plain))
        let notFolder = OperatorRun(["backup", plain + "/x.sqlite"], database: database)
        #expect(notFolder.status == 1)
        #expect(notFolder.report.contains("\(plain) is not a folder"), "\(notFolder.report)")
        for noun in ["backup", "restore"] {
            let empty = OperatorRun([noun, ""], database: database)
            #expect(empty.status == 2)
            #expect(empty.report.contains("\(noun) needs a FILE, and the name given is empty"), "\(empty.report)")
        }

        // An index that disagrees with its table: the copy is made, fails its check, and goes.
        let damaged = directory.path + "/damaged.sqlite"
        let writer = try Database(path: damaged)
        try writer.execute(sql: """
            CREATE TABLE t (x); CREATE INDEX t_x ON t (x); INSERT INTO t VALUES (1), (2);
            PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE INDEX t_x ON t (x DESC)' WHERE name = 't_x'
            """)
        writer.close()
        let failed = OperatorRun(["backup", directory.path + "/copy.sqlite"], database: damaged)
        #expect(failed.status == 1)
        #expect(failed.report.contains("the copy fails its integrity check"), "\(failed.report)")
        #expect(!Self.exists(directory.path + "/copy.sqlite"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".partial-") })
    }

    @Test("Restore refuses, changing nothing, a file that is not a QuickCart database or comes from a newer QuickCart; an older one is fine")
    func restoreTakesOnlyTheShopsDatabases() throws {
        let (directory, database) = try Self.stoppedShop()
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        func refused(_ file: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let run = OperatorRun(["restore", file], database: database)
            #expect(run.status == 1, sourceLocation: sourceLocation)
            #expect(run.report.contains(words), "\(run.report)", sourceLocation: sourceLocation)
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the database is as it was", sourceLocation: sourceLocation)
        }

        let garbage = directory.path + "/garbage.sqlite"
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: garbage))
        try refused(garbage, saying: "\(garbage) is not a SQLite database")

        let other = directory.path + "/other.sqlite"
        let otherWriter = try Database(path: other)
        try otherWriter.execute(sql: "CREATE TABLE t (x)")
        otherWriter.close()
        try refused(other, saying: "\(other) is not a QuickCart database")

        /// The shop's own backup in `name`, its schema version set to `mark(version)`; returns
        /// its path and the version it had.
        func markedBackup(_ name: String, _ mark: (Int) -> Int) throws -> (path: String, version: Int) {
            let path = directory.path + "/" + name
            #expect(OperatorRun(["backup", path], database: database).status == 0)
            let writer = try Database(path: path)
            defer { writer.close() }
            let version: Int = try #require(try writer.fetchValue("PRAGMA user_version"))
            try writer.execute(sql: "PRAGMA user_version = \(mark(version))")
            return (path, version)
        }

        // Marked as written by a build with one more migration.
        let (newer, version) = try markedBackup("newer.sqlite") { $0 + 1 }
        try refused(newer, saying: "comes from a newer QuickCart (schema version \(version + 1); this one knows up to \(version))")

        // An older schema version is taken (the shop migrates it when it starts): here the same
        // file marked as version 1, since restore reads only the number.
        let (older, _) = try markedBackup("older.sqlite") { _ in 1 }
        let restore = OperatorRun(["restore", older], database: directory.path + "/restored.sqlite")
        #expect(restore.status == 0, "\(restore.report)")
    }

    @Test("On PostgreSQL, backup and restore say to use pg_dump and pg_restore")
    func postgreSQLPointsToItsTools() {
        let backup = OperatorRun(["backup", "/tmp/never.dump"], database: "postgres://shop:s3cret@127.0.0.1:1/quickcart")
        #expect(backup.status == 1)
        #expect(backup.report.contains("pg_dump") && !backup.report.contains("s3cret"))
        let restore = OperatorRun(["restore", "/tmp/never.dump"], database: "postgres://shop:s3cret@127.0.0.1:1/quickcart")
        #expect(restore.status == 1)
        #expect(restore.report.contains("pg_restore") && !restore.report.contains("s3cret"))
    }
}
