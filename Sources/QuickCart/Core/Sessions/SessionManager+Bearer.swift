/// What an app's verified bearer token yields under the secret: pure functions of the token,
/// the same on every instance. A class, so taking one from the cache retains one object.
final class BearerKeys: Sendable {
    let token: APIToken
    /// What storage knows the client by: the SHA-256 of the token's id.
    let clientID: String
    let liveKey: String
    /// The shopper the client's first change stores, and its live key.
    let newShopperID: String
    let newShopperLiveKey: String

    init(token: APIToken, key: HMACKey) {
        self.token = token
        clientID = SHA256.hexDigest(of: token.id)
        liveKey = SessionManager.liveKey(ofClient: clientID, key: key)
        newShopperID = Hex.encode(Array(key.authenticate("shopper|\(clientID)".utf8).prefix(32)))
        newShopperLiveKey = SessionManager.liveKey(ofShopper: newShopperID, key: key)
    }
}

extension SessionManager {
    /// A new client for a native app, with a new shopper: its bearer token (shown once, never
    /// stored) and the id the devices list gives it. Nothing is stored until its first change.
    /// - Parameter device: What the app calls its device ("iPhone"), checked by the caller.
    public func issueAPIClient(device: String, at now: Int64) -> (token: String, clientID: String) {
        let token = APIToken.issue(device: device, at: now)
        let keys = BearerKeys(token: token, key: key)
        return (token.text(key: key), deviceHandle(ofClient: keys.clientID))
    }

    /// The session of an app's bearer token, read afresh from storage on every call, so a
    /// client signed out (from any device, through any instance) is refused at once.
    /// - Returns: `nil` for a token this shop did not sign, one whose client was signed out, or
    ///   one idle for longer than the idle lifetime (never stored: since it was issued).
    public func resolve(bearer text: some StringProtocol, at now: Int64) throws -> Resolution? {
        guard let keys = bearerKeys(String(text)) else { return nil }
        switch try store.session(clientID: keys.clientID) {
        case .active(let stored):
            guard stored.lastSeen >= now - idleLifetime else { return nil }
            if now - stored.lastSeen >= touchInterval { try store.touch(clientID: keys.clientID, at: now) }
            var session = storedSession(stored, clientID: keys.clientID, csrfToken: "", liveKey: keys.liveKey)
            // The token names its device, stored or not (a join's notice names it).
            session.device = APIToken.deviceName(keys.token.device)
            return Resolution(session: session, cart: stored.cart, cartVersion: stored.cartVersion, cookie: nil, isNew: false, token: nil)
        case .spent:
            return nil
        case nil:
            guard keys.token.issuedAt >= now - idleLifetime else { return nil }
            var session = Session(
                clientID: keys.clientID, shopperID: keys.newShopperID, createdAt: keys.token.issuedAt,
                displayName: Session.defaultDisplayName, isStored: false, csrfToken: "", liveKey: keys.liveKey,
                shopperLiveKey: keys.newShopperLiveKey
            )
            session.device = APIToken.deviceName(keys.token.device)
            return Resolution(session: session, cart: startingCart(of: session), cartVersion: 0, cookie: nil, isNew: false, token: nil)
        }
    }

    private func bearerKeys(_ text: String) -> BearerKeys? {
        if let known = verifiedBearers.withLock({ $0[text] }) { return known }
        guard let token = APIToken(text: text, key: key) else { return nil }
        let keys = BearerKeys(token: token, key: key)
        verifiedBearers.withLock { verified in
            // Forgetting everything now and then keeps the cache bounded and simple.
            if verified.count >= Self.verifiedCapacity { verified.removeAll(keepingCapacity: true) }
            verified[text] = keys
        }
        return keys
    }
}
