import Foundation
import QuickCart
import Testing

/// What the operator reads when a command line is wrong: the error and one line of hint on
/// standard error, never the whole help; `--help` alone prints the help.
@Suite("Usage errors")
struct UsageErrorTests {
    /// `quickcart` run with `arguments` in a folder of its own, and what it printed.
    struct Run {
        let status: Int32
        let output: String
        let errors: String

        var errorLines: [Substring] { errors.split(separator: "\n") }

        init(_ arguments: [String]) throws {
            let directory = try TemporaryDirectory()
            let run = try ChildProcess(try OperatorSafetyTests.quickcartBinary().path, arguments, directory: directory.path)
            status = run.status
            output = run.output
            errors = run.errors
        }
    }

    @Test("A usage error prints the error and at most one line of hint on standard error, exit status 2", arguments: [
        (["--port", "70000"], "--port must be a whole number"),
        (["--port", "70000", "--log-format", "json"], "--port must be a whole number"),
        (["--bogus"], "unknown option --bogus"),
        (["orders", "mark", "1", "refunded"], "the state must be one of"),
        (["catalog", "frobnicate"], "unknown command"),
        (["backup"], "backup needs a FILE"),
        (["catalog", "export", "--port", "70000"], "--port must be a whole number"),
    ])
    func oneLineAndAHint(arguments: [String], message: String) throws {
        let run = try Run(arguments)
        #expect(run.status == 2, "\(arguments)")
        #expect(run.output.isEmpty, "\(arguments): \(run.output)")
        #expect((1...2).contains(run.errorLines.count), "\(arguments): \(run.errors)")
        #expect(run.errorLines.first?.hasPrefix("quickcart: ") == true && run.errorLines.first?.contains(message) == true, "\(arguments): \(run.errors)")
        #expect(run.errorLines.dropFirst().allSatisfy { $0.contains("quickcart") && $0.contains("--help") || $0.hasPrefix("usage: quickcart") }, "\(run.errors)")
    }

    @Test("--help prints the whole help on standard output, exit status 0", arguments: [["--help"], ["-h"], ["catalog", "--help"], ["backup", "--help"]])
    func helpIsWhole(arguments: [String]) throws {
        let run = try Run(arguments)
        #expect(run.status == 0)
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.output.hasPrefix("Usage: quickcart") && run.output.split(separator: "\n").count > 20, "\(run.output)")
    }
}
