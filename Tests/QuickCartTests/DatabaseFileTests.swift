import Foundation
import QuickCart
import SQLite
import Testing

/// The SQLite file the shop is given: by any name it finds one lock, so restore never replaces
/// a file in use and two servers never serve one.
@Suite("The database file")
struct DatabaseFileTests {
    /// `path` (from the root) written relative to the working directory.
    static func relative(_ path: String) -> String {
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: depth) + path.dropFirst()
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
        let database = directory.path + "/quickcart.sqlite"
        let shop = try TestShop(directory: directory, inProcess: true)
        let shopper = shop.browser()
        #expect(try shopper.post("/profile/name", form: [("display_name", "Before")]).status == 303)
        let copy = directory.path + "/copy.sqlite"
        #expect(OperatorRun(["backup", copy], database: database).status == 0)
        #expect(try shopper.post("/profile/name", form: [("display_name", "After")]).status == 303)

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
        let database = directory.path + "/quickcart.sqlite"
        let shop = try TestShop(directory: directory, inProcess: true)
        let shopper = shop.browser()
        #expect(try shopper.post("/profile/name", form: [("display_name", "Before")]).status == 303)
        let copy = directory.path + "/copy.sqlite"
        #expect(OperatorRun(["backup", copy], database: database).status == 0)
        #expect(try shopper.post("/profile/name", form: [("display_name", "After")]).status == 303)

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
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user, "--", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        // A server that started is stopped: the test's expectation on its status then fails.
        if process.isRunning { process.terminate() }
        let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = outputText
        self.errors = errorText
    }
}
