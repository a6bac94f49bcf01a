/// What a committed cart change leaves behind, for the live badge.
public struct CartChange: Sendable, Equatable {
    /// The cart's new item count (sum of quantities).
    public let itemCount: Int
    /// Increases with every change of the session's cart, so listeners can drop stale news.
    public let version: Int64
    /// Whether the change was made before, under the same ``ChangeKey``, and this call wrote
    /// nothing: `itemCount` and `version` are the cart's as it is now.
    public let isReplay: Bool
    /// The live key of the shopper whose cart this is, when it is not the session's: its
    /// client joined that shopper while the change was on its way, and the change went to the
    /// cart the client shares now. `nil` when the change went to the session's shopper.
    public let movedToShopperLiveKey: String?

    /// A change that left `itemCount` items in the cart at `version` (or, as a replay, found
    /// them so).
    public init(itemCount: Int, version: Int64, isReplay: Bool = false, movedToShopperLiveKey: String? = nil) {
        self.itemCount = itemCount
        self.version = version
        self.isReplay = isReplay
        self.movedToShopperLiveKey = movedToShopperLiveKey
    }

    /// The live key whose streams hear this change: its shopper's.
    public func shopperLiveKey(for session: Session) -> String {
        movedToShopperLiveKey ?? session.shopperLiveKey
    }

    /// This change, made on the cart of the shopper whose live key is `shopperLiveKey`.
    func moved(toShopperLiveKey shopperLiveKey: String) -> CartChange {
        CartChange(itemCount: itemCount, version: version, isReplay: isReplay, movedToShopperLiveKey: shopperLiveKey)
    }
}

/// Why a cart change was refused. Nothing is written when one is thrown.
public enum CartError: Error, Equatable {
    /// The product is not in this session's cart.
    case notInCart
    /// There is nothing to check out.
    case emptyCart
    /// The cart has lines, but none of their products is for sale any more.
    case nothingForSale
    /// The product is in this session's cart already, so there is no line to put back.
    case alreadyInCart
    /// The cart's lines for sale, their quantities or their prices are not those the shopper
    /// was shown (the catalog or the cart changed since): they must review it again.
    case changedSinceShown
    /// The change was made on condition that the cart was still at a version (an API client's
    /// `If-Match`), and another change came first.
    case staleVersion
}

/// Changes to a session's cart. Each is one transaction that also stores a new session (see
/// ``SessionStore``), bumps the cart's version and reads the new count before committing.
/// A change that changes nothing (a quantity there already, an add at the maximum, a remove of
/// a line not there) commits nothing: it answers the cart's count and version as they are, and
/// a session not stored stays so. Quantities always stay within ``Cart/quantityRange``.
///
/// A change of one line (add, set, adjust) may carry a ``ChangeKey``: it is kept on the line
/// it writes, and a change carrying the key the line holds writes nothing and returns the cart
/// as it is, marked ``CartChange/isReplay``. Changes without a key all count. A keyed change
/// that changes nothing keeps no key either: the line keeps the key of the press that last
/// changed it, so that press's resend is still a replay, and the resend of a press that changed
/// nothing finds the cart as it did and again changes nothing.
public protocol CartStore: Sendable {
    /// The count (of lines for sale) and version of the cart of each stored shopper whose live
    /// key is among `liveKeys`, in one read: for open streams that may have missed news (a new
    /// catalog that leaves a line out of the count, a listener that reconnected).
    func currentChanges(forLiveKeys liveKeys: [String]) throws -> [String: CartChange]

    /// Adds `quantity` (at least 1) of `productID` after the lines already there, or that many
    /// more if it is there already, up to the maximum.
    /// - Parameters:
    ///   - expectedVersion: When given, the change is made only while the cart is at that
    ///     version (a cart never stored is at 0), checked inside its own transaction.
    ///   - key: The press this change is, when known: the line's key already, and nothing is written.
    /// - Throws: ``CartError/staleVersion`` when the cart is at another version, changing nothing.
    func add(productID: Int64, quantity: Int, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange

    /// Sets the quantity of a product already in the cart, clamped into ``Cart/quantityRange``.
    /// - Throws: ``CartError/notInCart`` when the product is not in this session's cart;
    ///   ``CartError/staleVersion`` as for ``add(productID:quantity:for:at:ifVersion:key:)``.
    func setQuantity(_ quantity: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange

    /// Adds `delta` (negative to take away) to the quantity stored now, clamped into
    /// ``Cart/quantityRange``, in one atomic step: concurrent adjustments all count.
    /// - Throws: ``CartError/notInCart`` when the product is not in this session's cart;
    ///   ``CartError/staleVersion`` as for ``add(productID:quantity:for:at:ifVersion:key:)``.
    func adjustQuantity(by delta: Int, of productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?, key: ChangeKey?) throws -> CartChange

    /// Removes a product from the cart; removing one that is not there changes nothing.
    /// - Throws: ``CartError/staleVersion`` as for ``add(productID:quantity:for:at:ifVersion:key:)``.
    func remove(productID: Int64, for session: Session, at now: Int64, ifVersion expectedVersion: Int64?) throws -> CartChange

    /// Puts a removed line back: `quantity` (clamped into ``Cart/quantityRange``) of
    /// `productID`, after the lines there.
    /// - Throws: ``CartError/alreadyInCart`` when the cart holds the product (put back
    ///   already, or added again), changing nothing.
    func restore(productID: Int64, quantity: Int, for session: Session, at now: Int64) throws -> CartChange

    /// Turns the cart into an order and empties the cart, in one transaction, once per intent:
    /// when the shopper has an order placed for `placement.intent` already, that order is
    /// returned and nothing is changed (whatever the cart holds now).
    /// - Returns: The intent's order, and the emptied cart's change when this call placed it.
    /// - Throws: ``CartError/changedSinceShown`` when the lines for sale are not the shown
    ///   ones; ``CartError/emptyCart`` when the cart has no lines, ``CartError/nothingForSale``
    ///   when it has some but none of their products is for sale any more. Nothing is changed.
    func placeOrder(_ placement: OrderPlacement, for session: Session, at now: Int64) throws -> PlacedOrder
}

extension CartStore {
    /// Adds one of `productID` (``add(productID:quantity:for:at:ifVersion:key:)``, unconditionally).
    public func add(productID: Int64, for session: Session, at now: Int64, key: ChangeKey? = nil) throws -> CartChange {
        try add(productID: productID, quantity: 1, for: session, at: now, ifVersion: nil, key: key)
    }

    /// ``setQuantity(_:of:for:at:ifVersion:key:)``, unconditionally.
    public func setQuantity(_ quantity: Int, of productID: Int64, for session: Session, at now: Int64, key: ChangeKey? = nil) throws -> CartChange {
        try setQuantity(quantity, of: productID, for: session, at: now, ifVersion: nil, key: key)
    }

    /// ``adjustQuantity(by:of:for:at:ifVersion:key:)``, unconditionally.
    public func adjustQuantity(by delta: Int, of productID: Int64, for session: Session, at now: Int64, key: ChangeKey? = nil) throws -> CartChange {
        try adjustQuantity(by: delta, of: productID, for: session, at: now, ifVersion: nil, key: key)
    }

    /// ``remove(productID:for:at:ifVersion:)``, unconditionally.
    public func remove(productID: Int64, for session: Session, at now: Int64) throws -> CartChange {
        try remove(productID: productID, for: session, at: now, ifVersion: nil)
    }
}
