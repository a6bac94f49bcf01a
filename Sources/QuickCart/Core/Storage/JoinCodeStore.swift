/// A code a client showed to bring in another device, as its page shows it again.
public struct StoredJoinCode: Sendable, Equatable {
    /// What the code is derived from with the shop's secret (the code itself is never stored).
    public var nonce: String
    public var createdAt: Int64
    public var expiresAt: Int64
    /// When another device joined with it; `nil` while unused.
    public var usedAt: Int64?
    /// Wrong tries made while it was live (``JoinCode/voidingWrongTries`` void it).
    public var wrongTries: Int

    public init(nonce: String, createdAt: Int64, expiresAt: Int64, usedAt: Int64?, wrongTries: Int) {
        self.nonce = nonce
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.wrongTries = wrongTries
    }
}

/// Whose cart a live code joins, for the join page (which changes nothing).
public struct JoinPreview: Sendable, Equatable {
    public var displayName: String
    public var itemCount: Int
    public var shopperID: String

    public init(displayName: String, itemCount: Int, shopperID: String) {
        self.displayName = displayName
        self.itemCount = itemCount
        self.shopperID = shopperID
    }
}

/// What a join did.
public enum JoinOutcome: Sendable, Equatable {
    /// The client now belongs to the code's shopper. `mergedItems` of its own cart's items were
    /// added to the shopper's cart (quantities added, clamped); `change` is that cart's new state;
    /// `showingClientID` the client that showed the code.
    case joined(mergedItems: Int, change: CartChange, shopperID: String, shopperLiveKey: String, showingClientID: String)
    /// The client belongs to the shopper of that code (live, or used by this client's own
    /// join a moment ago: a second press of the button) already: nothing changed.
    case alreadyJoined
    /// No live code has that hash (wrong, used, expired or void). A wrong one counted against
    /// every live code; nothing else changed.
    case refused
}

/// Codes that bring another device into a shopper's cart ("Continue on another device"). A
/// code lasts ``JoinCode/lifetime``, works once, and is void after
/// ``JoinCode/voidingWrongTries`` wrong tries.
public protocol JoinCodeStore: Sendable {
    /// Stores a new code of `session`'s client (storing the shopper and client first if needed),
    /// known by `hash`, derivable from `nonce`; the client's earlier unused codes are void.
    func createCode(hash: String, nonce: String, for session: Session, at now: Int64) throws

    /// The newest code the client stored under `clientID` showed, if any.
    func newestCode(ofClient clientID: String) throws -> StoredJoinCode?

    /// Whose cart the code known by `hash` joins, if it is live at `now`. Reads only.
    func preview(hash: String, at now: Int64) throws -> JoinPreview?

    /// Joins `session`'s client to the shopper of the live code known by `hash`, in ONE
    /// transaction: the client is stored if it was not (under that shopper, with its waiting
    /// searches), its own cart's lines and searches are added to the shopper's (quantities
    /// added, clamped to the maximum), the shopper
    /// it leaves is deleted when no client is left (its orders stay, as records), and the code
    /// is used. A hash of no live code counts one wrong try against every live code. With
    /// `newClientID`, the client goes on (or is stored) under that id, and the session's own is
    /// spent as a sign-out spends it (a browser's, against session fixation: whoever held its
    /// cookie before the join reaches nothing of the shopper it joined).
    func join(hash: String, for session: Session, renamingTo newClientID: String?, at now: Int64) throws -> JoinOutcome
}
