import Synchronization

/// A fixed row of counters that any thread adds to without a lock: one relaxed atomic
/// addition each. Its size is decided when it is made (per-route slots are known at start),
/// so counting never allocates or takes a lock.
final class AtomicCounters: @unchecked Sendable {
    // @unchecked Sendable: the storage is only ever touched through the atomics in it.
    private let storage: UnsafeMutablePointer<Atomic<Int>>
    /// How many counters there are.
    let count: Int

    init(count: Int) {
        precondition(count > 0, "AtomicCounters needs at least one counter")
        self.count = count
        storage = .allocate(capacity: count)
        for index in 0..<count { (storage + index).initialize(to: Atomic(0)) }
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds `amount` to counter `index`.
    @inline(__always)
    func add(_ amount: Int, at index: Int) {
        storage[index].wrappingAdd(amount, ordering: .relaxed)
    }

    /// Counter `index`'s value now.
    func value(at index: Int) -> Int {
        storage[index].load(ordering: .relaxed)
    }
}
