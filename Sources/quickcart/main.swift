import Dispatch
import Foundation
import QuickCart

// Runs an operator's command (`catalog …`, `orders …`), or reads options, opens the database,
// serves until SIGINT or SIGTERM, then stops cleanly.

/// Prints `message` to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("quickcart: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
// `quickcart catalog …` and `quickcart orders …` are the operator's commands; anything else serves.
if OperatorCommand.isCommand(arguments) {
    let status = OperatorCommand.run(
        arguments: arguments, environment: ProcessInfo.processInfo.environment,
        output: OperatorCommand.Output(
            write: { FileHandle.standardOutput.write(Data($0.utf8)) },
            report: { FileHandle.standardError.write(Data(($0.hasSuffix("\n") ? $0 : $0 + "\n").utf8)) }
        )
    )
    exit(status)
}
if arguments.contains("--help") || arguments.contains("-h") {
    FileHandle.standardOutput.write(Data(Configuration.usage.utf8))
    exit(0)
}

let configuration: Configuration
do {
    configuration = try Configuration.parse(arguments: arguments, environment: ProcessInfo.processInfo.environment)
} catch {
    fail("\(error)\n\n\(Configuration.usage)", status: 2)
}

// Before serving and before the serving line: a tool may send SIGTERM the moment it reads that
// line, and the default action would end the process without closing the database.
let stop = DispatchSemaphore(value: 0)
var signalSources: [any DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    // @Sendable: a handler made in top-level code would otherwise inherit @MainActor and trap.
    source.setEventHandler { @Sendable in stop.signal() }
    source.resume()
    signalSources.append(source)
}

let app: QuickCartApp
do {
    app = try QuickCartApp(configuration: configuration)
    try app.start()
} catch {
    fail("\(error)", status: 1)
}

let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
// Written straight to the file descriptor: tools waiting for this line read a pipe.
FileHandle.standardOutput.write(Data("QuickCart is serving http://\(host):\(app.port)/ (database \(Storage.loggable(configuration.databasePath)))\n".utf8))

stop.wait()
app.stop()
FileHandle.standardOutput.write(Data("QuickCart stopped.\n".utf8))
exit(0)
