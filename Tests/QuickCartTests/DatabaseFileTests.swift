import Foundation
import QuickCart
import SQLite
import Testing

/// The SQLite file the shop is given: by any name it finds one lock, so restore never replaces
/// a file in use and two servers never serve one; a file it cannot serve safely (a newer
/// QuickCart's, one it may not write, a damaged one) is refused at start in one line naming it.
@Suite("The database file")
struct DatabaseFileTests {
    /// `path` (from the root) written relative to the working directory.
    static func relative(_ path: String) -> String {
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: depth) + path.dropFirst()
    }

    /// A running shop in `directory` whose shopper was named "Before" when `copy` was backed up,
    /// and "After" since.
    static func shopChangedSinceItsBackup(
        in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (shop: TestShop, shopper: Browser, database: String, copy: String) {
        let database = directory.path + "/quickcart.sqlite"
        let shop = try TestShop(directory: directory, inProcess: true)
        let shopper = shop.browser()
        #expect(try shopper.post("/profile/name", form: [("display_name", "Before")]).status == 303, sourceLocation: sourceLocation)
        let copy = directory.path + "/copy.sqlite"
        #expect(OperatorRun(["backup", copy], database: database).status == 0, sourceLocation: sourceLocation)
        #expect(try shopper.post("/profile/name", form: [("display_name", "After")]).status == 303, sourceLocation: sourceLocation)
        return (shop, shopper, database, copy)
    }

    /// A shop's display name for `cookie`, read from its database through a new in-process shop.
    static func displayName(in directory: TemporaryDirectory, cookie: String?) throws -> String? {
        let shop = try TestShop(directory: directory, inProcess: true)
        defer { shop.stop() }
        return try BackupTests.displayName(shop.browser(cookie: cookie))
    }

    @Test("While a server runs, restore refuses its database by every other name: a symbolic link, ./ and .., a relative path")
    func restoreRefusesEveryNameOfTheServedFile() throws {
        let directory = try TemporaryDirectory()
        let (shop, shopper, database, copy) = try Self.shopChangedSinceItsBackup(in: directory)

        let symbolic = directory.path + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: "quickcart.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path + "/sub", withIntermediateDirectories: false)
        let names = [
            symbolic, directory.path + "/./quickcart.sqlite", directory.path + "/sub/../quickcart.sqlite",
            Self.relative(database), Self.relative(symbolic),
        ]
        for name in names {
            let run = OperatorRun(["restore", copy], database: name)
            #expect(run.status == 1, "\(name): \(run.output)")
            #expect(run.report.contains("the database is in use"), "\(name): \(run.report)")
        }
        #expect(try BackupTests.displayName(shopper) == "After", "the live shop lost nothing")
        shop.stop()
        #expect(try Self.displayName(in: directory, cookie: shopper.sessionCookie) == "After")
        #expect(!FileManager.default.fileExists(atPath: symbolic + ".lock"), "one lock, named after the real file")
    }

    @Test("A database file with a second name (a hard link) is refused by serving, the commands and restore, and nothing is written beside either name")
    func hardLinksRefused() throws {
        let directory = try TemporaryDirectory()
        let (shop, shopper, database, copy) = try Self.shopChangedSinceItsBackup(in: directory)

        let hard = directory.path + "/hard.sqlite"
        try FileManager.default.linkItem(atPath: database, toPath: hard)
        for name in [hard, database] {
            let restore = OperatorRun(["restore", copy], database: name)
            #expect(restore.status == 1, "\(name): \(restore.output)")
            #expect(restore.report == "quickcart: \(name) is one file with 2 names (hard links), and QuickCart uses a database by one name only: "
                + "remove the other names (find / -xdev -samefile \(name) lists them), or use a copy\n", "\(restore.report)")
            let export = OperatorRun(["orders", "export"], database: name)
            #expect(export.status == 1 && export.report.contains("hard links"), "\(name): \(export.report)")
        }
        #expect(throws: (any Error).self) { try TestShop(directory: directory, inProcess: true) { $0.databasePath = hard } }
        #expect(!FileManager.default.fileExists(atPath: hard + "-wal") && !FileManager.default.fileExists(atPath: hard + ".lock"))
        #expect(try BackupTests.displayName(shopper) == "After")
        shop.stop()

        try FileManager.default.removeItem(atPath: hard)
        #expect(try Self.displayName(in: directory, cookie: shopper.sessionCookie) == "After", "the live data was never overwritten")
        #expect(OperatorRun(["restore", copy], database: database).status == 0, "with one name again, restore works")
    }

    @Test("A second server is refused on the same file by any name, a link to a file not made yet included; the commands still run beside the server")
    func oneServerPerFile() throws {
        let directory = try TemporaryDirectory()
        let database = directory.path + "/quickcart.sqlite"
        let symbolic = directory.path + "/link.sqlite"
        // A link to a file the first server creates: the lock is found through the link all the same.
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: database)
        let shop = try TestShop(directory: directory, inProcess: true) { $0.databasePath = symbolic }
        #expect(FileManager.default.fileExists(atPath: database))
        for name in [database, symbolic, Self.relative(database), directory.path + "/./link.sqlite"] {
            do {
                let second = try TestShop(directory: directory, inProcess: true) { $0.databasePath = name }
                second.stop()
                Issue.record("a second server started on \(name)")
            } catch {
                #expect("\(error)".contains("another QuickCart server is serving this database"), "\(name): \(error)")
            }
        }
        let export = OperatorRun(["orders", "export"], database: symbolic)
        #expect(export.status == 0, "\(export.report)")

        // And from another process, the executable itself.
        let run = try ExecutableRun.server(["--db", symbolic])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.errors == "quickcart: another QuickCart server is serving this database (it holds its lock); "
            + "a SQLite database is served by one process at a time\n", "\(run.errors)")
        shop.stop()
    }

    @Test("A database from a newer QuickCart is refused by the server and the commands in one line, and left as it was")
    func newerSchemaRefused() throws {
        let (directory, database) = try BackupTests.stoppedShop()
        let writer = try Database(path: database)
        let known: Int = try #require(try writer.fetchValue("PRAGMA user_version"))
        try writer.execute(sql: "PRAGMA user_version = \(known + 1)")
        writer.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let refusal = "quickcart: \(database) comes from a newer QuickCart (schema version \(known + 1); this one knows up to \(known)): "
            + "serve it with that version or a newer one, or restore a backup made before the upgrade\n"

        let server = try ExecutableRun.server(["--db", database])
        #expect(server.status == 1, "\(server.output)")
        #expect(server.errors == refusal, "\(server.errors)")
        #expect(!server.output.contains("serving"), "\(server.output)")
        let catalog = directory.path + "/own.csv"
        try Data(CatalogImportTests.ownCatalog.utf8).write(to: URL(fileURLWithPath: catalog))
        for arguments in [["catalog", "export"], ["orders", "export"], ["catalog", "import", catalog], ["orders", "mark", "1", "paid"]] {
            let run = OperatorRun(arguments, database: database)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.output.isEmpty, "\(arguments): \(run.output)")
            #expect(run.report == refusal, "\(arguments): \(run.report)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the database is as it was")
    }

    @Test("A database file the server may not write is refused at start in one line naming it; so are the commands, which open it as the server does")
    func readOnlyFileRefused() throws {
        let (directory, database) = try BackupTests.stoppedShop()
        // As root, the file stays root's (0644) and QuickCart runs as nobody in a folder nobody
        // may write in, as an operator's mistake would have it; otherwise the file is made 0444.
        let user: String? = getuid() == 0 ? "nobody" : nil
        if user != nil {
            #expect(chmod(directory.path, 0o777) == 0)
            #expect(chmod(database, 0o644) == 0)
            try FileManager.default.removeItem(atPath: database + ".lock")
        } else {
            #expect(chmod(database, 0o444) == 0)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let refusal = "quickcart: cannot write the database \(database) as the user \(user ?? String(cString: getpwuid(geteuid()).pointee.pw_name)): "
            + "make the file writable by the user QuickCart runs as, or run QuickCart as the file's owner\n"

        let server = try ExecutableRun.server(["--db", database], user: user)
        #expect(server.status == 1, "\(server.output)")
        #expect(server.errors == refusal, "\(server.errors)")
        #expect(!server.output.contains("serving"), "\(server.output)")
        let export = try ExecutableRun(["orders", "export", "--db", database], user: user)
        #expect(export.status == 1)
        #expect(export.errors == refusal, "\(export.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the database is as it was")
    }

    @Test("A damaged database file is refused at start in one line naming it and saying what to do")
    func damagedDatabaseNamed() throws {
        let (directory, database) = try BackupTests.stoppedShop()
        defer { withExtendedLifetime(directory) {} }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: database))
        let refusal = "quickcart: \(database) is damaged or is not a SQLite database (file is not a database): "
            + "move it aside with its -wal and -shm files, then restore a backup into its place (quickcart restore)\n"
        let server = try ExecutableRun.server(["--db", database])
        #expect(server.status == 1, "\(server.output)")
        #expect(server.errors == refusal, "\(server.errors)")
        let export = OperatorRun(["catalog", "export"], database: database)
        #expect(export.status == 1)
        #expect(export.report == refusal, "\(export.report)")
    }

    @Test("Restore refuses a truncated backup as failing its integrity check, in one line, and the database stays as it was")
    func truncatedBackupRefused() throws {
        let (directory, database) = try BackupTests.stoppedShop()
        let copy = directory.path + "/copy.sqlite"
        #expect(OperatorRun(["backup", copy], database: database).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        let truncated = directory.path + "/truncated.sqlite"
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: truncated))
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        let run = OperatorRun(["restore", truncated], database: database)
        #expect(run.status == 1)
        #expect(run.report.hasPrefix("quickcart: \(truncated) fails its integrity check: "), "\(run.report)")
        #expect(run.reportLines.count == 1 && !run.report.contains("SQLITE_") && !run.report.contains("SQL:"), "\(run.report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the database is as it was")
    }
}

/// One run of the `quickcart` executable, as `user` when given (through `runuser`). A server is
/// expected to refuse to start; one that serves instead is stopped, with status 0.
struct ExecutableRun {
    let status: Int32
    let output: String
    let errors: String

    /// The server on a free port, with `arguments` after the test's own options.
    static func server(_ arguments: [String], user: String? = nil) throws -> ExecutableRun {
        try ExecutableRun(["--port", "0", "--threads", "1", "--resources", TestShop.repositoryRoot, "--no-access-log"] + arguments, user: user)
    }

    init(_ arguments: [String], user: String? = nil) throws {
        let binary = try OperatorSafetyTests.quickcartBinary().path
        // A server that started is stopped after 20 s: the test's expectation on its status then fails.
        let run = if let user {
            try ChildProcess("/usr/sbin/runuser", ["-u", user, "--", binary] + arguments)
        } else {
            try ChildProcess(binary, arguments)
        }
        status = run.status
        output = run.output
        errors = run.errors
    }
}
