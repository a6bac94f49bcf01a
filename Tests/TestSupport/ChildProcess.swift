#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end (or stopped after a time limit), and what it printed on standard
/// output and standard error, read together so that a full pipe never holds it up.
///
/// Started with `posix_spawn` rather than Foundation's `Process`: `Process.run` reads past the
/// end of a buffer while it lists the test process's open files (`findMaximumOpenFromProcSelfFD`
/// in swift-corelibs-foundation), which AddressSanitizer stops the whole test run for when many
/// files happen to be open, as they are with the tests running side by side.
public struct ChildProcess: Sendable {
    /// The exit status; 128 plus the signal's number when a signal ended it.
    public let status: Int32
    public let output: String
    public let errors: String

    /// Runs `executable` (a path) with `arguments`, in `directory` (the test's own by default),
    /// with the test's environment and nothing on standard input. After `timeout`, a program
    /// still running is sent SIGTERM, and its status then says so.
    public init(_ executable: String, _ arguments: [String], directory: String? = nil, timeout: Duration = .seconds(20)) throws {
        guard let closeFrom = GNU.function("posix_spawn_file_actions_addclosefrom_np", as: GNU.AddCloseFrom.self),
              let changeDirectory = GNU.function("posix_spawn_file_actions_addchdir_np", as: GNU.AddChangeDirectory.self) else {
            throw Failure("this glibc has no posix_spawn_file_actions_addclosefrom_np or _addchdir_np (2.34 and later do)")
        }
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else { throw Failure("pipe: errno \(errno)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        // Nothing else of the test process's (its servers' sockets, other children's pipes).
        _ = closeFrom(&actions, 3)
        if let directory { _ = changeDirectory(&actions, directory) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = Self.withSignalsUnblocked { posix_spawn(&pid, executable, &actions, $0, argv, environ) }
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw Failure("posix_spawn \(executable): error \(spawned)")
        }

        var output: [UInt8] = [], errors: [UInt8] = []
        var open = [outputPipe[0], errorPipe[0]]
        let deadline = ContinuousClock.now + timeout
        var stopped = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            if !stopped, ContinuousClock.now >= deadline {
                kill(pid, SIGTERM)
                stopped = true
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), 100) >= 0 || errno == EINTR else { break }
            for entry in polled where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if entry.fd == outputPipe[0] { output += buffer[..<count] } else { errors += buffer[..<count] }
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        var waited: Int32 = 0
        while waitpid(pid, &waited, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
        let signal = waited & 0x7F
        status = signal == 0 ? (waited >> 8) & 0xFF : 128 + signal
        self.output = String(decoding: output, as: UTF8.self)
        self.errors = String(decoding: errors, as: UTF8.self)
    }

    /// Runs `body` with posix_spawn attributes that start a program with no signal blocked: the
    /// test runner may block signals on its threads, and SIGTERM must stop a server it starts
    /// as it would anywhere.
    public static func withSignalsUnblocked<T>(_ body: (UnsafePointer<posix_spawnattr_t>) throws -> T) rethrows -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        return try body(&attributes)
    }

    /// glibc's GNU extensions that the Glibc module leaves out, found by name.
    private enum GNU {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

        static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
            // A null handle is RTLD_DEFAULT: the process's own libraries.
            dlsym(nil, name).map { unsafeBitCast($0, to: type) }
        }
    }

    /// Why a program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
