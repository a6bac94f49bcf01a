/// A shopper's saved delivery details: offered at the next checkout, shown and edited on
/// Profile, deleted by the shopper. Any of the shopper's clients sees the same ones.
public protocol DeliveryDetailsStore: Sendable {
    /// The shopper's details and their version, `nil` when none are saved.
    func deliveryDetails(for session: Session) throws -> SavedDeliveryDetails?

    /// Saves `details` for the shopper the session's client belongs to now (storing the
    /// session if it is not stored yet): one it joined since the session was read, if it did.
    /// - Returns: The new version: the saving's time in milliseconds, or one more than the
    ///   version before when that is larger, so a page showing older details (deleted ones
    ///   included) can tell.
    func saveDeliveryDetails(_ details: DeliveryDetails, for session: Session, at nowMilliseconds: Int64) throws -> Int64

    /// Deletes the shopper's details. - Returns: Whether there were any.
    @discardableResult
    func deleteDeliveryDetails(for session: Session) throws -> Bool
}

/// Delivery details as saved, with the version a page that shows them carries.
public struct SavedDeliveryDetails: Sendable, Equatable {
    public var details: DeliveryDetails
    public var version: Int64

    public init(details: DeliveryDetails, version: Int64) {
        self.details = details
        self.version = version
    }
}
