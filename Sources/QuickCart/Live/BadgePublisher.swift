/// Where a committed change is sent, to reach every open `/events` stream of the shopper, and
/// where a sign-out ends a client's streams.
///
/// The in-process ``BadgeHub`` is one; a publisher for several instances carries the news
/// between machines under live keys (``Session/shopperLiveKey``, ``Session/liveKey``). Counts
/// carry the cart's version, so news delivered twice or out of order is harmless.
public protocol BadgePublisher: Sendable {
    /// Tells every open stream of every client of `session`'s shopper its cart's new count.
    /// Call once the change has committed.
    func publish(_ change: CartChange, for session: Session)

    /// Ends, at once and on every instance, the open streams of the clients whose live keys
    /// are `liveKeys`. Call once their sign-out has committed.
    func endStreams(ofClients liveKeys: [String])

    /// A client joined another shopper with a code: its open streams (under `clientKey`)
    /// follow that shopper (`shopperKey`) from now on, every stream of the shopper hears the
    /// cart's new count, and the streams of the client that showed the code (`showingClientKey`)
    /// hear `event: device-joined` with `notice` (JSON). On every instance; call once committed.
    func joined(client clientKey: String, shopper shopperKey: String, change: CartChange, showingClient showingClientKey: String, notice: String)
}
