/// A device (browser or app) of the shopper, as the devices list shows it.
public struct Device: Hashable, Sendable, Codable, Identifiable {
    /// The id to sign it out by.
    public let id: String
    /// What it is, e.g. `"QuickCart app on iPhone"` or `"Chromium on Linux"`.
    public let device: String
    /// The day it was last seen, `YYYY-MM-DD`.
    public let lastSeen: String
    /// Whether it is the device asking.
    public let current: Bool
}

/// A new client's credentials, shown once by `POST /api/v1/clients`.
public struct Registration: Hashable, Sendable, Codable {
    /// The client's part of the answer.
    public struct Client: Hashable, Sendable, Codable {
        /// The client's id, as the devices list names it.
        public let id: String
        /// The name the devices list shows for it ("QuickCart app on iPhone").
        public let device: String
    }

    /// The bearer token. Keep it (in the Keychain): the server stores only its hash and
    /// never shows it again.
    public let token: String
    /// The new client.
    public let client: Client
}
