import Dispatch
import FoundationEssentials
import Glibc
import QuickCart

// Runs an operator's command (`catalog …`, `orders …`, `backup`, `restore`), or reads options, opens the database,
// serves until SIGINT or SIGTERM, then stops cleanly.

/// Writes `text` straight to the file descriptor: tools waiting for a line read a pipe.
func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// Prints `message` to stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    write("quickcart: \(message)\n", to: STDERR_FILENO)
    exit(status)
}

// A reload asked for while the shop starts finds nothing to reread yet (start reads the
// certificate): ignored from the first line, where the default action would end the process.
signal(SIGHUP, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
// `quickcart catalog …`, `orders …`, `backup` and `restore` are the operator's commands; anything else serves.
if OperatorCommand.isCommand(arguments) {
    let status = OperatorCommand.run(
        arguments: arguments, environment: ProcessInfo.processInfo.environment,
        output: OperatorCommand.Output(
            write: { write($0, to: STDOUT_FILENO) },
            report: { write($0.hasSuffix("\n") ? $0 : $0 + "\n", to: STDERR_FILENO) }
        )
    )
    exit(status)
}
if arguments.contains("--help") || arguments.contains("-h") {
    write(Configuration.usage, to: STDOUT_FILENO)
    exit(0)
}

let configuration: Configuration
do {
    configuration = try Configuration.parse(arguments: arguments, environment: ProcessInfo.processInfo.environment)
} catch {
    // One line to act on; the whole help would bury it.
    fail("\(error)\nsee quickcart --help", status: 2)
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
    // In the log's format: a supervisor reading JSON reads why the start failed too.
    if configuration.logFormat == .json {
        write(configuration.logFormat.errorLine("\(error)"), to: STDERR_FILENO)
        exit(1)
    }
    fail("\(error)", status: 1)
}

let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
let scheme = configuration.servesHTTPS ? "https" : "http"
write("QuickCart is serving \(scheme)://\(host):\(app.port)/ (database \(Storage.loggable(configuration.databasePath)))\n", to: STDOUT_FILENO)
if let metricsAddress = configuration.metricsAddress, let port = app.metricsPort {
    // After the serving line, which tools read first; this one names no shop address.
    var address = metricsAddress
    address.port = port
    write("QuickCart metrics on http://\(address.authority)/metrics\n", to: STDOUT_FILENO)
}

if let redirectPort = app.redirectPort {
    write("QuickCart redirects http://\(host):\(redirectPort)/ to HTTPS\n", to: STDOUT_FILENO)
}
// SIGHUP (systemctl reload) rereads the TLS certificate and key, keeping every open
// connection; without TLS it only says so, never ends the process.
let reload = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
reload.setEventHandler { @Sendable in app.reloadTLSCertificate() }
reload.resume()
signalSources.append(reload)

// Only now, with the port accepting connections (and the metrics listener up): a service
// manager that waits for readiness (systemd's Type=notify) starts what depends on the shop.
ServiceNotification.send(
    ["READY=1", "MAINPID=\(getpid())", "STATUS=Serving \(scheme)://\(host):\(app.port)/"], environment: ProcessInfo.processInfo.environment
)

stop.wait()
ServiceNotification.send(["STOPPING=1"], environment: ProcessInfo.processInfo.environment)
app.stop()
write("QuickCart stopped.\n", to: STDOUT_FILENO)
exit(0)
