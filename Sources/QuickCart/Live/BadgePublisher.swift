/// Where the cart controller sends a committed change's new count, to reach every open
/// `/events` stream of the session.
///
/// The in-process ``BadgeHub`` is one; a publisher for several instances carries the news
/// between machines under ``Session/storedLiveKey``. Counts carry the cart's version, so news
/// delivered twice or out of order is harmless.
public protocol BadgePublisher: Sendable {
    /// Tells every open stream of `session` its cart's new count: those under
    /// ``Session/storedLiveKey``, and, when this change stored the session (so its
    /// ``Session/liveKey`` differs), those opened under the old key, which from then on follow
    /// the stored session (``BadgeHub/moveStreams(from:to:)``). Call once the change has committed.
    func publish(_ change: CartChange, for session: Session)
}
