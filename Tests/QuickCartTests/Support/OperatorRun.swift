import QuickCart
import Synchronization

/// One run of an operator's command (`quickcart catalog …`, `quickcart orders …`) in this
/// process, with what it wrote to its output and its report.
struct OperatorRun {
    let status: Int32
    let output: String
    let report: String

    /// Runs `arguments` as the executable would, with `--db` (and `--media`) pointing at `database`.
    init(_ arguments: [String], database: String, media: String? = nil, shouldContinue: @escaping @Sendable () -> Bool = { true }) {
        let output = Transcript()
        let report = Transcript()
        var all = arguments + ["--db", database, "--resources", TestShop.repositoryRoot]
        if let media { all += ["--media", media] }
        status = OperatorCommand.run(
            arguments: all, environment: [:],
            output: OperatorCommand.Output(write: { output.append($0) }, report: { report.append($0 + "\n") }),
            shouldContinue: shouldContinue
        )
        self.output = output.text
        self.report = report.text
    }

    /// The report's lines.
    var reportLines: [String] { report.split(separator: "\n").map(String.init) }
}

/// Text gathered from any thread.
final class Transcript: Sendable {
    private let buffer = Mutex("")

    func append(_ text: String) {
        buffer.withLock { $0 += text }
    }

    var text: String { buffer.withLock { $0 } }
}
