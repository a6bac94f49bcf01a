import CPostgres
import Foundation
import Postgres
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for tests: Debian's binaries, a new cluster in a temporary
/// directory, listening on 127.0.0.1 on a free port with `trust` authentication.
///
/// Most tests share one server per test process (``shared()``) and each makes its own
/// database with ``makeDatabase()``; a test that stops the server (an outage) starts a
/// private one with ``init()`` and ends it with ``remove()``.
///
/// PostgreSQL refuses to run as root, and tests often run as root: then the directory is
/// given to the `postgres` user (created by Debian's package) and every server binary runs
/// as that user through `runuser`. A watchdog shell ends the server and deletes the
/// directory when the test process exits, however it exits, so nothing outlives the run.
///
/// ```swift
/// let url = try TestPostgresServer.shared().makeDatabase()
/// let pool = try PostgresPool(connectionString: url)
/// ```
public final class TestPostgresServer: Sendable {
    /// The TCP port on 127.0.0.1.
    public let port: Int

    /// The temporary directory holding the cluster (`data/`), the server log and the Unix
    /// socket.
    public let directory: String

    private let binaries: String
    private let runsAsPostgresUser: Bool
    /// The watchdog shell, which cleans up when its standard input closes; `nil` once removed.
    private let watchdog: Mutex<Watchdog?>
    private let databaseCounter = Atomic<Int>(0)

    // MARK: - Creating and removing

    /// Creates a cluster with `initdb` and starts it (about a second).
    ///
    /// - Throws: ``TestPostgresServer/Failure`` if PostgreSQL is not installed or a step
    ///   fails; the message includes the command's output.
    public init() throws {
        let binaries = try Self.findBinaries()
        let port = try Self.freePort()
        let runsAsPostgresUser = getuid() == 0
        // Root's TMPDIR may be private; the postgres user must be able to reach the directory.
        let base = runsAsPostgresUser ? "/tmp" : FileManager.default.temporaryDirectory.path
        let directory = base + "/PostgresTesting-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if runsAsPostgresUser {
            guard let user = getpwnam("postgres") else {
                throw Failure("PostgreSQL refuses to run as root, and there is no postgres user to run it as")
            }
            guard chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw Failure("cannot give \(directory) to the postgres user (errno \(errno))")
            }
        }
        self.binaries = binaries
        self.runsAsPostgresUser = runsAsPostgresUser
        self.directory = directory
        self.port = port
        self.watchdog = Mutex(try Self.startWatchdog(directory: directory))
        do {
            try runServerBinary("initdb", [
                "-D", dataDirectory, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8",
                "--no-sync", "--no-instructions",
            ])
            try start()
        } catch {
            remove()
            throw error
        }
    }

    deinit {
        remove()
    }

    private static let sharedServer = Mutex<TestPostgresServer?>(nil)

    /// The server shared by every test of this process, started on first use and removed
    /// when the process exits. Never stop it: other tests run on it in parallel.
    ///
    /// - Returns: The running shared server.
    /// - Throws: ``TestPostgresServer/Failure`` if it cannot start.
    public static func shared() throws -> TestPostgresServer {
        try sharedServer.withLock { server in
            if let server { return server }
            let started = try TestPostgresServer()
            server = started
            return started
        }
    }

    /// Stops the server if it runs and deletes its directory. Calling it again does nothing.
    public func remove() {
        let watchdog = self.watchdog.withLock { watchdog in
            defer { watchdog = nil }
            return watchdog
        }
        guard let watchdog else { return }
        try? stop()
        // Closing the watchdog's input makes it delete the directory (and end a server
        // that failed to stop); waiting for it means the directory is gone on return.
        close(watchdog.inputDescriptor)
        _ = Self.waitForExit(of: watchdog.processID)
    }

    // MARK: - Stopping and starting

    /// Starts the cluster and waits until it accepts connections, on the same port.
    ///
    /// - Throws: ``TestPostgresServer/Failure`` if `pg_ctl start` fails.
    public func start() throws {
        try runServerBinary("pg_ctl", [
            "start", "-D", dataDirectory, "-w", "-t", "30", "-l", directory + "/server.log",
            "-o", [
                "-p \(port)", "-h 127.0.0.1", "-k \(directory)",
                // Durability is pointless for a throwaway cluster; speed is not.
                "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
                "-c max_connections=300",
            ].joined(separator: " "),
        ])
    }

    /// Stops the cluster with `pg_ctl stop -m fast`: every connection is ended at once, as
    /// in a real outage, and ``start()`` brings the same cluster back.
    ///
    /// - Throws: ``TestPostgresServer/Failure`` if `pg_ctl stop` fails.
    public func stop() throws {
        try runServerBinary("pg_ctl", ["stop", "-D", dataDirectory, "-m", "fast", "-w", "-t", "30"])
    }

    /// Whether the server is running, according to `pg_ctl status`.
    public var isRunning: Bool {
        (try? runServerBinary("pg_ctl", ["status", "-D", dataDirectory])) != nil
    }

    // MARK: - Databases

    /// The URL of a database on this server, as user `postgres` without a password.
    ///
    /// - Parameter database: The database name.
    /// - Returns: `postgresql://postgres@127.0.0.1:PORT/DATABASE?connect_timeout=30`.
    public func url(database: String = "postgres") -> String {
        // The URL's connect_timeout wins over the app's own 2 s, which a connection missed while
        // two test processes each started PostgreSQL servers on a busy machine. A stopped
        // server refuses at once, so outages are still noticed straight away.
        "postgresql://postgres@127.0.0.1:\(port)/\(database)?connect_timeout=30"
    }

    /// Creates a new, empty database with a unique name, so tests running in parallel never
    /// share tables.
    ///
    /// - Parameter prefix: The start of the name, for reading the server log.
    /// - Returns: The new database's URL.
    /// - Throws: ``PostgresError`` if the server refuses.
    public func makeDatabase(prefix: String = "test") throws -> String {
        let number = databaseCounter.add(1, ordering: .relaxed).newValue
        let name = "\(prefix)_\(number)"
        let connection = try PostgresConnection(connectionString: url())
        defer { connection.close() }
        try connection.execute(sql: "CREATE DATABASE \"\(name)\"")
        return url(database: name)
    }

    // MARK: - Internals

    /// An error of the test server itself.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the command's output when a command failed.
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    private var dataDirectory: String { directory + "/data" }

    private struct Watchdog {
        let processID: pid_t
        /// The write end of its standard input.
        let inputDescriptor: Int32
    }

    /// Debian installs the binaries under `/usr/lib/postgresql/VERSION/bin`, off the PATH;
    /// the newest version wins. Otherwise the PATH and `/usr/local/bin` are searched.
    private static func findBinaries() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { name in Int(name).map { (version: $0, name: name) } }
            .sorted { $0.version > $1.version }
        var candidates = versions.map { "\(root)/\($0.name)/bin" }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        candidates.append("/usr/local/bin")
        for candidate in candidates {
            if ["initdb", "pg_ctl", "postgres"].allSatisfy({ FileManager.default.isExecutableFile(atPath: "\(candidate)/\($0)") }) {
                return candidate
            }
        }
        throw Failure("PostgreSQL's initdb, pg_ctl and postgres were not found (install Debian's postgresql package)")
    }

    /// A port the kernel just handed out on 127.0.0.1, closed again for the server to take.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket() failed (errno \(errno))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw Failure("cannot find a free port (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts a shell that waits for its standard input to close, then ends the server
    /// (SIGQUIT: immediate shutdown) and deletes the directory. It ignores Ctrl-C's SIGINT
    /// (sent to the whole process group) so that it outlives the test process to clean up.
    ///
    /// - Returns: The shell, and the write end of its standard input, kept open by this process.
    private static func startWatchdog(directory: String) throws -> Watchdog {
        var descriptors: [Int32] = [-1, -1]
        // Only the watchdog may hold the read end, and no child the write end: the server
        // inheriting it would keep the watchdog waiting forever. Close-on-exec from the
        // start, as a test spawning on another thread could otherwise inherit them.
        guard cpostgres_pipe_cloexec(&descriptors, 0) == 0 else { throw Failure("pipe2() failed (errno \(errno))") }
        defer { close(descriptors[0]) }
        let script = """
            trap '' INT TERM HUP
            cat >/dev/null
            if pid=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null) && kill -QUIT "$pid" 2>/dev/null; then
              while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
            fi
            rm -rf "$1"
            """
        do {
            let pid = try spawn("/bin/sh", ["-c", script, "watchdog", directory], standardInput: descriptors[0], output: -1)
            return Watchdog(processID: pid, inputDescriptor: descriptors[1])
        } catch {
            close(descriptors[1])
            throw error
        }
    }

    /// Runs one of the server's binaries to completion, as the postgres user when root.
    ///
    /// - Returns: The command's output.
    /// - Throws: ``Failure`` with the command's output if it exits non-zero.
    @discardableResult
    private func runServerBinary(_ name: String, _ arguments: [String]) throws -> String {
        let executable = binaries + "/" + name
        let command = runsAsPostgresUser
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments
            : [executable] + arguments
        // Output goes to a file, not a pipe: the server pg_ctl leaves running inherits
        // the descriptor, and a pipe would then never report its end.
        let outputPath = directory + "/\(name)-\(UUID().uuidString.prefix(8)).out"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Failure("cannot create \(outputPath) (errno \(errno))") }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status: Int32
        do {
            defer { close(output) }
            let pid = try Self.spawn(command[0], Array(command.dropFirst()), standardInput: -1, output: output)
            status = Self.waitForExit(of: pid)
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure("\(name) \(arguments.joined(separator: " ")) exited with status \(status): \(text)")
        }
        return text
    }

    /// Starts a program with posix_spawn. Foundation's `Process` is not used: it learns of a
    /// child's exit through a descriptor the child inherits, which the server daemonised by
    /// `pg_ctl start` keeps open, so waiting for `pg_ctl` would never end.
    ///
    /// - Parameters:
    ///   - standardInput: The descriptor to read from, or -1 for /dev/null.
    ///   - output: The descriptor for standard output and error, or -1 for /dev/null.
    /// - Returns: The child's process ID.
    private static func spawn(_ executable: String, _ arguments: [String], standardInput: Int32, output: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardInput >= 0 {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for target: Int32 in [1, 2] {
            if output >= 0 {
                posix_spawn_file_actions_adddup2(&actions, output, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = ChildProcess.withSignalsUnblocked { posix_spawn(&pid, executable, &actions, $0, argv, environ) }
        guard result == 0 else { throw Failure("cannot start \(executable) (error \(result))") }
        return pid
    }

    /// Waits for a child and returns its exit status (128 + signal if killed).
    private static func waitForExit(of pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
