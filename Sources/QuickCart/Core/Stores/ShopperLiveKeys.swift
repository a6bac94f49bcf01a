/// The live keys of shoppers a migration made from stored sessions, as ``SessionManager``
/// derives them for new ones, so both backends' migrations compute them by one rule.
enum ShopperLiveKeys {
    /// Calls `store` with each shopper id and its live key under the shop's secret (hex, as
    /// `settings` holds it). Without a secret there is nothing to fill: it is made before any
    /// session is stored.
    static func fill(secretHex: String?, shopperIDs: [String], _ store: (String, String) throws -> Void) throws {
        guard let secretHex, let secret = Hex.decode(secretHex) else { return }
        for id in shopperIDs {
            try store(id, SessionManager.liveKey(ofShopper: id, secret: secret))
        }
    }
}
