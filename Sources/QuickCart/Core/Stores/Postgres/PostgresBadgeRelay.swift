import Postgres

/// Carries the live badge between the instances that share one database.
///
/// The cart store sends each committed change on ``channel`` inside its transaction, as
/// `LIVEKEY VERSION COUNT`, followed by ` OLDKEY` when the change stored the session under a
/// new id (live keys are keyed hashes of session ids, never the ids), so only committed news
/// travels, and every instance moves the streams opened under the old key as this one does.
/// Every instance listens on one dedicated connection and feeds its own hub; the instance
/// that made the change also delivers it at once, and the copy that comes back through the
/// database is dropped by its version.
///
/// Notifications sent while the listener was away are lost, so after each reconnection the
/// current count of every session with an open stream here is read and sent again.
final class PostgresBadgeRelay: BadgePublisher {
    /// The `NOTIFY` channel.
    static let channel = "quickcart_badge"

    /// The channel of the probes that time the notification path (see ``statistics(probingThrough:)``).
    static let probeChannel = "quickcart_probe"

    private let hub: BadgeHub
    private let listener: PostgresListener
    private let probes = NotificationProbes()

    /// - Precondition: `connectionString` parses (the pool was made from it already).
    init(connectionString: String, hub: BadgeHub, database: PostgresDatabase) {
        self.hub = hub
        do {
            listener = try PostgresListener(
                connectionString: connectionString,
                channels: [Self.channel, Self.probeChannel],
                onNotification: { [hub, probes] notification in
                    if notification.channel == Self.probeChannel { return probes.received(notification.payload) }
                    guard let news = Self.parse(notification.payload) else { return }
                    if let movedFrom = news.movedFrom { hub.moveStreams(from: movedFrom, to: news.liveKey) }
                    hub.publish(news.change, liveKey: news.liveKey)
                },
                onReconnect: { [hub] in Self.resendCurrentCounts(to: hub, from: database) }
            )
        } catch {
            preconditionFailure("the listener refused a connection string the pool accepted: \(error)")
        }
    }

    func publish(_ change: CartChange, for session: Session) {
        hub.moveStreams(from: session.liveKey, to: session.storedLiveKey)
        hub.publish(change, liveKey: session.storedLiveKey)
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
    /// to a second. A probe that does not come back leaves the last measured lag.
    func statistics(probingThrough database: PostgresDatabase) -> StorageStatistics.Listener {
        if listener.isListening {
            let (payload, returned) = probes.next()
            do {
                try database.withConnection { connection in
                    _ = try connection.execute("SELECT pg_notify($1::text, $2::text)", Self.probeChannel, payload)
                }
                probes.waitForReturn(after: returned, timeout: .seconds(1))
            } catch {
                Log.error("timing a notification failed: \(error)")
            }
        }
        return StorageStatistics.Listener(
            isListening: listener.isListening, sessions: listener.sessionCount, notificationLagSeconds: probes.lastLagSeconds
        )
    }

    /// Stops listening; no news reaches the hub afterwards.
    func stop() {
        listener.stop()
    }

    /// The payload of a change of `session` to `version`, around its count (which the
    /// statement that sends it reads): `LIVEKEY VERSION ` and `` or ` OLDKEY`.
    static func payloadParts(version: Int64, for session: Session) -> (beforeCount: String, afterCount: String) {
        ("\(session.storedLiveKey) \(version) ", session.liveKey == session.storedLiveKey ? "" : " \(session.liveKey)")
    }

    /// `LIVEKEY VERSION COUNT[ OLDKEY]`, or `nil` for anything else.
    static func parse(_ payload: String) -> (liveKey: String, change: CartChange, movedFrom: String?)? {
        let parts = payload.split(separator: " ")
        guard parts.count == 3 || parts.count == 4, let version = Int64(parts[1]), let count = Int(parts[2]) else { return nil }
        return (String(parts[0]), CartChange(itemCount: count, version: version), parts.count == 4 ? String(parts[3]) : nil)
    }

    /// Reads the count and version of every session with an open stream on this instance,
    /// in one query, and sends each to its streams even if that version was sent before.
    /// Streams still under the key of a cookie whose change stored the session under a new id
    /// (news of it may have been missed too) move to the session's key first.
    private static func resendCurrentCounts(to hub: BadgeHub, from database: PostgresDatabase) {
        let liveKeys = hub.liveKeysWithOpenStreams
        guard !liveKeys.isEmpty else { return }
        do {
            let current = try database.withConnection { connection in
                try connection.fetchAll(
                    """
                    SELECT s.live_key, s.first_live_key, s.cart_version,
                           (SELECT coalesce(sum(quantity), 0)::bigint FROM cart_items c WHERE c.session_id = s.id)
                    FROM sessions s WHERE s.live_key = ANY($1::text[]) OR s.first_live_key = ANY($1::text[])
                    """,
                    arrayLiteral(liveKeys)
                ) { row in
                    (liveKey: try row.string(0), firstLiveKey: try row.get(1, as: String?.self),
                     change: CartChange(itemCount: try row.int(3), version: try row.int64(2)))
                }
            }
            for entry in current {
                if let firstLiveKey = entry.firstLiveKey { hub.moveStreams(from: firstLiveKey, to: entry.liveKey) }
                hub.resend(entry.change, liveKey: entry.liveKey)
            }
        } catch {
            Log.error("resending badge counts after the listener reconnected failed: \(error)")
        }
    }

    /// A PostgreSQL array literal of texts, each quoted.
    private static func arrayLiteral(_ texts: [String]) -> String {
        let quoted = texts.map { text in
            var escaped = "\""
            for character in text {
                if character == "\\" || character == "\"" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}
