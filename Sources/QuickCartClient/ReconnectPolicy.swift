/// How the event stream reconnects when it ends or cannot be opened, as EventSource does but
/// with a backoff: the first try waits the stream's reconnection time (its `retry:`, or
/// ``initialDelay`` until the server sent one), and each failure after it doubles the wait,
/// up to ``maximumDelay``. A connection that delivered an event starts the count again.
public struct ReconnectPolicy: Hashable, Sendable {
    /// The reconnection time until the server names one with `retry:`.
    public var initialDelay: Duration
    /// The longest wait between tries.
    public var maximumDelay: Duration

    /// A policy starting at `initialDelay` (one second by default), capped at `maximumDelay`
    /// (thirty seconds).
    public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30)) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before the next try: `base` after no failure, doubled per failure since the
    /// last connection that delivered something, never more than ``maximumDelay``.
    func delay(base: Duration, failures: Int) -> Duration {
        var delay = base
        for _ in 0..<min(failures, 32) where delay < maximumDelay {
            delay *= 2
        }
        return min(delay, maximumDelay)
    }
}
