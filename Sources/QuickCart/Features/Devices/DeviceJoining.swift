import MicroHTTP

/// The rules of joining a shopper with a code and of signing devices out, shared by the web's
/// forms and the API: the per-address limit on wrong codes, the join's one transaction, the
/// news it sends (the count to every stream, the joining client's streams moved, the notice to
/// the device that showed the code), and a sign-out that ends the devices' streams everywhere.
struct DeviceJoining: Sendable {
    let joinCodes: any JoinCodeStore
    let sessions: any SessionStore
    let sessionManager: SessionManager
    let publisher: any BadgePublisher
    let attempts: AddressAttempts

    /// What a join came to.
    enum Outcome: Equatable {
        /// This address made too many wrong tries lately; nothing was looked at.
        case tooManyTries
        /// The text is no code at all: it guesses none, so it is not counted as a wrong try.
        case malformed
        /// No live code is that one (counted as a wrong try).
        case refused
        /// The client belongs to that shopper already; nothing changed.
        case alreadyJoined
        /// The client now belongs to the code's shopper; `merged` of its own items were added.
        case joined(merged: Int)
    }

    /// Joins `session`'s client (the device `device`, as its list will name it) with the code
    /// `typed`, as sent from `address`; with `renamed`,
    /// the client goes on under that identity and its old one is spent, its streams ended (a
    /// browser's page opens a new one with the new cookie).
    func join(typed: String, session: Session, device: String, address: String, renamed: SessionManager.Renamed?, at now: Int64) throws -> Outcome {
        guard attempts.allows(address, at: now) else { return .tooManyTries }
        guard let code = JoinCode.normalized(typed) else { return .malformed }
        switch try joinCodes.join(hash: sessionManager.joinCodeHash(code), for: session, renamingTo: renamed?.clientID, at: now) {
        case .refused:
            attempts.record(address, at: now)
            return .refused
        case .alreadyJoined:
            return .alreadyJoined
        case .joined(let merged, let change, _, let shopperKey, let showingClient):
            let clientID = renamed?.clientID ?? session.clientID
            let notice = BadgeHub.joinNotice(
                // FSI … PDI isolate the name as <bdi> would: the notice is plain text (a page
                // sets it as text, an app shows it), and a name must not reorder the rest.
                text: "A new device joined: \u{2068}\(device)\u{2069} — not you? Sign it out.",
                device: sessionManager.deviceHandle(ofClient: clientID)
            )
            publisher.joined(
                client: renamed?.liveKey ?? session.liveKey, shopper: shopperKey, change: change,
                showingClient: sessionManager.liveKey(ofClient: showingClient), notice: notice
            )
            // The old identity's streams end with it, as a sign-out's do.
            if renamed != nil { publisher.endStreams(ofClients: [session.liveKey]) }
            return .joined(merged: merged)
        }
    }

    /// The device of `session`'s shopper whose handle (``SessionManager/deviceHandle(ofClient:)``)
    /// is `handle`, compared in constant time; `nil` when there is none.
    func device(handle: String, of session: Session) throws -> StoredDevice? {
        guard session.isStored else { return nil }
        return try sessions.devices(ofShopper: session.shopperID).first {
            ConstantTime.equals(sessionManager.deviceHandle(ofClient: $0.clientID), handle)
        }
    }

    /// Signs `devices` of `session`'s shopper out and ends their streams on every instance.
    /// - Returns: How many were signed out.
    @discardableResult
    func signOut(_ devices: [StoredDevice], of session: Session, at now: Int64) throws -> Int {
        let ended = try sessions.endClients(devices.map(\.clientID), ofShopper: session.shopperID, spendingUnstored: nil, at: now)
        publisher.endStreams(ofClients: ended.map(sessionManager.liveKey(ofClient:)))
        return ended.count
    }

    /// Signs every device of `session`'s shopper but this one out, read under the shopper's
    /// lock, and ends their streams on every instance.
    /// - Returns: How many were signed out.
    func signOutOthers(of session: Session, at now: Int64) throws -> Int {
        let ended = try sessions.endClients(ofShopper: session.shopperID, except: session.clientID, at: now)
        publisher.endStreams(ofClients: ended.map(sessionManager.liveKey(ofClient:)))
        return ended.count
    }

    /// Signs `session`'s own client out for good (every id it had, stored or not) and ends its
    /// streams.
    /// - Returns: The cookie of a fresh session, for a browser.
    func signOutHere(_ session: Session, at now: Int64) throws -> Cookie {
        let cookie = try sessionManager.endSession(session, at: now)
        publisher.endStreams(ofClients: [session.liveKey])
        return cookie
    }
}
