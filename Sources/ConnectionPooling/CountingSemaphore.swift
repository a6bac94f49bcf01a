import Dispatch
import Synchronization

/// A semaphore (a pool's free connection slots, a turn to write) that counts the waiters who
/// found nothing free and had to wait, for the pool's statistics.
public struct CountingSemaphore: ~Copyable, Sendable {
    @usableFromInline let semaphore: DispatchSemaphore
    @usableFromInline let waits = Atomic<Int>(0)

    /// A semaphore with `value` free at first.
    public init(value: Int) {
        semaphore = DispatchSemaphore(value: value)
    }

    /// Waiters that found nothing free and had to wait, since the semaphore was made.
    public var waitCount: Int { waits.load(ordering: .relaxed) }

    /// Takes one, waiting for it up to `milliseconds` when none is free.
    /// - Parameter milliseconds: Worked out only when the wait is needed.
    /// - Returns: `false` when none came free in time.
    @inlinable
    public func wait(milliseconds: @autoclosure () -> Int) -> Bool {
        // A deadline already past takes a free one at once, without reading the clock (or
        // working out the timeout) for a deadline the common, uncontended case never needs.
        if semaphore.wait(timeout: DispatchTime(uptimeNanoseconds: 1)) == .success { return true }
        waits.add(1, ordering: .relaxed)
        return semaphore.wait(timeout: .now() + .milliseconds(milliseconds())) == .success
    }

    /// Gives one back.
    @inlinable
    public func signal() {
        semaphore.signal()
    }
}
