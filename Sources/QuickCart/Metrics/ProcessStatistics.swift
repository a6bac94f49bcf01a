import Glibc

/// The process's resident memory and open files, read from `/proc/self` (Linux).
struct ProcessStatistics {
    /// Resident set size in bytes; `nil` where `/proc/self/statm` cannot be read.
    var residentBytes: Int?
    /// Open file descriptors; `nil` where `/proc/self/fd` cannot be listed.
    var openFiles: Int?
    /// The soft limit on open file descriptors.
    var maximumOpenFiles: Int?

    static func now() -> ProcessStatistics {
        var statistics = ProcessStatistics()
        if let statm = read("/proc/self/statm") {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { statistics.residentBytes = pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        if let directory = opendir("/proc/self/fd") {
            var count = 0
            while let entry = readdir(directory) {
                let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
                if !isDot { count += 1 }
            }
            closedir(directory)
            // Less the descriptor the listing itself held open.
            statistics.openFiles = count - 1
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 { statistics.maximumOpenFiles = Int(limit.rlim_cur) }
        return statistics
    }

    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
