import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lines for a file descriptor (standard error by default), gathered and written together:
/// a `write(2)` for every request's log line would cost a system call per answer. Lines go out
/// in order, once 16 KiB have gathered or when ``flush()`` is called, which QuickCartApp does
/// every 200 ms and when it stops; a crash loses at most the lines of that last moment.
final class BufferedLog: Sendable {
    private let pending = Mutex<[UInt8]>([])
    private let descriptor: Int32
    private static let threshold = 16 * 1024

    init(descriptor: Int32 = 2) {
        self.descriptor = descriptor
    }

    /// Adds a line (with its line break); writes the gathered lines once there are enough.
    func write(_ line: String) {
        pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            // Written under the lock, so lines keep their order; this happens once per
            // hundred-odd lines.
            if bytes.count >= Self.threshold { writeOut(&bytes) }
        }
    }

    /// Writes every gathered line now.
    func flush() {
        pending.withLock { bytes in writeOut(&bytes) }
    }

    private func writeOut(_ bytes: inout [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    break // Nowhere to write (a closed descriptor): drop the lines rather than spin.
                }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
