import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Probes that time a notification's way through PostgreSQL and back to this instance's
/// listener: each carries a nonce of this instance (others' probes are ignored) and its send
/// time on this machine's monotonic clock, so no two clocks are compared.
final class NotificationProbes: Sendable {
    private let nonce = Hex.encode(SecureRandom.bytes(count: 8))
    private let state = Mutex(State())

    private struct State {
        var returned = 0
        var lastLagSeconds: Double?
    }

    /// The payload of a new probe, and how many had returned before it.
    func next() -> (payload: String, returned: Int) {
        ("\(nonce) \(DispatchTime.now().uptimeNanoseconds)", state.withLock { $0.returned })
    }

    /// Takes a probe that came back on the listener's thread.
    func received(_ payload: String) {
        let parts = payload.split(separator: " ")
        guard parts.count == 2, parts[0] == nonce, let sent = UInt64(parts[1]) else { return }
        let lag = Double(DispatchTime.now().uptimeNanoseconds &- sent) / 1e9
        state.withLock { state in
            state.returned += 1
            state.lastLagSeconds = lag
        }
    }

    /// Waits until more than `returned` probes came back, or `timeout` passed.
    func waitForReturn(after returned: Int, timeout: Duration) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout / .microseconds(1)) * 1000
        while state.withLock({ $0.returned }) <= returned, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(1_000)
        }
    }

    /// The lag of the last probe that came back, in seconds; `nil` before one did, or since
    /// ``forgetLag()``.
    var lastLagSeconds: Double? { state.withLock { $0.lastLagSeconds } }

    /// Drops the last lag, until the next probe comes back.
    func forgetLag() {
        state.withLock { $0.lastLagSeconds = nil }
    }
}
