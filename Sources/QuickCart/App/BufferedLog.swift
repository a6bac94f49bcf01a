import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lines for a file descriptor (standard error by default), gathered and written together:
/// a `write(2)` for every request's log line would cost a system call per answer. Lines go out
/// in order, once 16 KiB have gathered, when ``flush()`` is called, which QuickCartApp does
/// every 200 ms and when it stops, or at once (still off the writing thread) for a line written
/// `promptly`; a crash loses at most the lines of that last moment.
///
/// Request threads never write: they append under a lock that nothing holds for long, and the
/// writes happen on a queue of the log's own, outside that lock. A descriptor that stops taking
/// bytes (a stalled pipe) therefore holds up only that queue, never a request; meanwhile the
/// lines gathered are bounded by `capacity`, past which lines are dropped and counted, and the
/// count is written as a line of its own once the descriptor takes bytes again.
final class BufferedLog: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        /// Lines dropped since the last write because `capacity` was reached.
        var dropped = 0
        /// Whether a write is queued or under way (at most one is scheduled at a time).
        var writeScheduled = false
    }

    private let pending = Mutex(Pending())
    private let droppedTotal = Atomic<Int>(0)
    private let descriptor: Int32
    private let capacity: Int
    /// What the line reporting dropped lines calls this log.
    private let name: String
    private let writer = DispatchQueue(label: "quickcart.buffered-log")
    private static let threshold = 16 * 1024

    /// - Parameters:
    ///   - descriptor: Where lines go.
    ///   - capacity: The most bytes gathered while the descriptor is not taking them.
    ///   - name: What the line reporting dropped lines calls this log.
    init(descriptor: Int32 = 2, capacity: Int = 1024 * 1024, name: String = "access log") {
        self.descriptor = descriptor
        self.capacity = max(capacity, Self.threshold)
        self.name = name
    }

    /// Lines dropped so far because the descriptor was not taking them.
    var droppedLineCount: Int { droppedTotal.load(ordering: .relaxed) }

    /// Adds a line (with its line break); once there are enough, or at once when `promptly`,
    /// has them written, without waiting for the write.
    func write(_ line: String) {
        write(line, promptly: false)
    }

    /// As ``write(_:)``; `promptly` has the line written soon rather than with the next flush.
    func write(_ line: String, promptly: Bool) {
        let startWrite = pending.withLock { pending in
            guard pending.bytes.count + line.utf8.count <= capacity else {
                pending.dropped += 1
                droppedTotal.add(1, ordering: .relaxed)
                return false
            }
            pending.bytes.append(contentsOf: line.utf8)
            guard promptly || pending.bytes.count >= Self.threshold, !pending.writeScheduled else { return false }
            pending.writeScheduled = true
            return true
        }
        if startWrite { writer.async { self.writeGathered() } }
    }

    /// Writes every gathered line, waiting at most `timeout` seconds for the descriptor to
    /// take them (a stalled descriptor must not hold up whoever flushes, a stopping server included).
    func flush(timeout: Double = 2) {
        let done = DispatchSemaphore(value: 0)
        writer.async {
            self.writeGathered()
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
    }

    /// On `writer` only: takes what has gathered out from under the lock and writes it, until
    /// nothing is left, so lines keep their order.
    private func writeGathered() {
        var batch: [UInt8] = []
        while true {
            let dropped = pending.withLock { pending in
                swap(&batch, &pending.bytes)
                defer { pending.dropped = 0 }
                if batch.isEmpty { pending.writeScheduled = false }
                return pending.dropped
            }
            guard !batch.isEmpty || dropped > 0 else { return }
            writeOut(batch)
            if dropped > 0 {
                writeOut(Array("quickcart: \(name): \(dropped) lines dropped while the log was not taking them\n".utf8))
            }
            batch.removeAll(keepingCapacity: batch.capacity <= Self.threshold * 4)
        }
    }

    private func writeOut(_ bytes: [UInt8]) {
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
    }
}
