import Postgres

/// Carries the live badge between the instances that share one database.
///
/// The cart store sends each committed change on ``channel`` inside its transaction, as
/// `LIVEKEY VERSION COUNT` (the shopper's live key, a keyed hash of its id, never an id), so
/// only committed news travels. Signing clients out sends `end LIVEKEY` for each (the client's
/// live key), so their streams end on every instance; a join sends `move` and `tell` (see
/// ``News``); an order's move sends `order LIVEKEY ID STATE` (``orderPayload(liveKey:orderID:state:)``)
/// from whichever process made it. Every instance listens on one dedicated
/// connection and feeds its own hub; the instance that made the change also delivers it at
/// once, and the copy that comes back through the database is dropped by its version.
///
/// Notifications sent while the listener was away are lost, so after each reconnection the
/// current count of every shopper with an open stream here is read and sent again.
final class PostgresBadgeRelay: BadgePublisher {
    /// The `NOTIFY` channel.
    static let channel = "quickcart_badge"

    /// The channel of the probes that time the notification path (see ``statistics(probingThrough:)``).
    static let probeChannel = "quickcart_probe"

    private let hub: BadgeHub
    private let listener: PostgresListener
    private let probes = NotificationProbes()
    private let pool: PostgresStoragePool

    /// - Precondition: `connectionString` parses (the pool was made from it already).
    init(connectionString: String, hub: BadgeHub, pool: PostgresStoragePool) {
        self.hub = hub
        self.pool = pool
        do {
            listener = try PostgresListener(
                connectionString: connectionString,
                channels: [Self.channel, Self.probeChannel],
                onNotification: { [hub, probes] notification in
                    if notification.channel == Self.probeChannel { return probes.received(notification.payload) }
                    switch Self.parse(notification.payload) {
                    case .change(let liveKey, let change): hub.publish(change, liveKey: liveKey)
                    case .end(let clientKey): hub.endStreams(ofClient: clientKey)
                    case .moved(let clientKey, let shopperKey, let change): hub.moveStreams(ofClient: clientKey, to: shopperKey, hearing: change)
                    case .told(let clientKey, let event, let data): hub.tell(client: clientKey, event: event, data: data)
                    case .order(let liveKey, let orderID, let state): hub.announceOrder(orderID, state: state, liveKey: liveKey)
                    case nil: break
                    }
                },
                onReconnect: { [hub, probes] in
                    // A lag from before the gap says nothing of the new connection.
                    probes.forgetLag()
                    Self.resendCurrentCounts(to: hub, from: pool)
                }
            )
        } catch {
            preconditionFailure("the listener refused a connection string the pool accepted: \(error)")
        }
    }

    func publish(_ change: CartChange, for session: Session) {
        hub.publish(change, liveKey: change.shopperLiveKey(for: session))
    }

    /// Ends the streams here at once, and tells every other instance to end theirs. The
    /// clients are spent already (committed), so a stream that opens meanwhile cannot be theirs.
    func endStreams(ofClients liveKeys: [String]) {
        for key in liveKeys { hub.endStreams(ofClient: key) }
        notifyOthers(liveKeys.map { "end " + $0 }, about: "end a signed-out client's streams")
    }

    /// The cart's news went out with the join's commit; what moves streams and tells the
    /// showing device follows it here. The move carries the join's count: the count went out
    /// before it, when the client's streams there were not yet the shopper's. The notice goes
    /// only by the database, which brings it back to this instance too: sent here as well, it
    /// would be heard twice.
    func joined(client clientKey: String, shopper shopperKey: String, change: CartChange, showingClient showingClientKey: String, notice: String) {
        hub.moveStreams(ofClient: clientKey, to: shopperKey, hearing: change)
        hub.publish(change, liveKey: shopperKey)
        notifyOthers(
            ["move \(clientKey) \(shopperKey) \(change.version) \(change.itemCount)", "tell \(showingClientKey) device-joined \(notice)"],
            about: "follow a join"
        )
    }

    /// Sends `payloads` to every instance (this one hears them again, harmlessly).
    private func notifyOthers(_ payloads: [String], about what: String) {
        do {
            try pool.withConnection { connection in
                for payload in payloads {
                    _ = try connection.fetchValue("SELECT pg_notify($1, $2)::text", Self.channel, payload, as: String.self)
                }
            }
        } catch {
            Log.error("telling the other instances to \(what) failed: \(error)")
        }
    }

    /// Starts listening, waiting briefly for the first `LISTEN` so that changes committed
    /// right after the server starts reach this instance's streams.
    func start() {
        listener.start()
        if !listener.waitUntilListening(timeout: .seconds(2)) {
            Log.error("the badge listener is not connected yet; it keeps trying")
        }
    }

    /// The listener's state, after timing one notification through the database: a probe
    /// sent on ``probeChannel`` with this instance's nonce and its send time, waited for up
    /// to a second. A probe that does not come back leaves the last lag measured since the
    /// listener last connected; while it is down there is no lag to tell.
    func statistics(probingThrough pool: PostgresStoragePool) -> StorageStatistics.Listener {
        let isListening = listener.isListening
        if isListening {
            let (payload, returned) = probes.next()
            do {
                try pool.withConnection { connection in
                    _ = try connection.execute("SELECT pg_notify($1::text, $2::text)", Self.probeChannel, payload)
                }
                probes.waitForReturn(after: returned, timeout: .seconds(1))
            } catch {
                Log.error("timing a notification failed: \(error)")
            }
        }
        return StorageStatistics.Listener(
            isListening: isListening, sessions: listener.sessionCount, notificationLagSeconds: isListening ? probes.lastLagSeconds : nil
        )
    }

    /// Whether the listener holds its connection now.
    var isListening: Bool { listener.isListening }

    /// Stops listening; no news reaches the hub afterwards.
    func stop() {
        listener.stop()
    }

    /// The payload of a change of `session`'s cart to `version`, around its count (which the
    /// statement that sends it reads): `LIVEKEY VERSION ` and nothing after.
    static func payloadParts(version: Int64, for session: Session) -> (beforeCount: String, afterCount: String) {
        ("\(session.shopperLiveKey) \(version) ", "")
    }

    /// The payload of order `orderID`'s move to `state`, for the streams of the shopper whose
    /// live key is `liveKey`.
    static func orderPayload(liveKey: String, orderID: Int64, state: OrderState) -> String {
        "order \(liveKey) \(orderID) \(state.rawValue)"
    }

    /// What a payload says.
    enum News: Equatable {
        /// An order moved: `order LIVEKEY ID STATE`.
        case order(liveKey: String, orderID: Int64, state: OrderState)
        /// A shopper's cart changed: `LIVEKEY VERSION COUNT`.
        case change(liveKey: String, CartChange)
        /// A client was signed out: `end LIVEKEY`.
        case end(clientKey: String)
        /// A client joined another shopper, whose cart the join left at a version and count:
        /// `move CLIENTKEY SHOPPERKEY VERSION COUNT`.
        case moved(clientKey: String, shopperKey: String, CartChange)
        /// News for one client's page: `tell CLIENTKEY EVENT DATA` (the data may hold spaces).
        case told(clientKey: String, event: String, data: String)
    }

    /// The news in `payload`, or `nil` for anything else.
    static func parse(_ payload: String) -> News? {
        if payload.hasPrefix("move ") {
            let parts = payload.split(separator: " ")
            guard parts.count == 5, let version = Int64(parts[3]), let count = Int(parts[4]) else { return nil }
            return .moved(clientKey: String(parts[1]), shopperKey: String(parts[2]), CartChange(itemCount: count, version: version))
        }
        let parts = payload.split(separator: " ", maxSplits: 3)
        if parts.count == 2, parts[0] == "end" { return .end(clientKey: String(parts[1])) }
        if parts.count == 4, parts[0] == "tell" { return .told(clientKey: String(parts[1]), event: String(parts[2]), data: String(parts[3])) }
        if parts.count == 4, parts[0] == "order", let id = Int64(parts[2]), let state = OrderState(rawValue: String(parts[3])) {
            return .order(liveKey: String(parts[1]), orderID: id, state: state)
        }
        guard parts.count == 3, let version = Int64(parts[1]), let count = Int(parts[2]) else { return nil }
        return .change(liveKey: String(parts[0]), CartChange(itemCount: count, version: version))
    }

    /// Reads the count and version of every shopper with an open stream on this instance, in
    /// one query, and sends each to its streams even if that version was sent before.
    private static func resendCurrentCounts(to hub: BadgeHub, from pool: PostgresStoragePool) {
        do {
            for (liveKey, change) in try PostgresCartStore(pool: pool).currentChanges(forLiveKeys: hub.liveKeysWithOpenStreams) {
                hub.resend(change, liveKey: liveKey)
            }
        } catch {
            Log.error("resending badge counts after the listener reconnected failed: \(error)")
        }
    }
}
