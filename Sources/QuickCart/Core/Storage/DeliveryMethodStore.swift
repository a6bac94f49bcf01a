/// The shop's delivery methods, as its configuration file set them (`quickcart delivery import`).
/// A new database has the demo's (``DeliverySeed``).
public protocol DeliveryMethodStore: Sendable {
    /// Every method, in the file's order.
    func deliveryMethods() throws -> [DeliveryMethod]

    /// Puts `methods` in place of every method, in one transaction. Orders keep the method
    /// they were placed with (a copy), so a method left out simply goes.
    func replaceDeliveryMethods(_ methods: [DeliveryMethod]) throws
}
