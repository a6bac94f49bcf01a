/// What both backends' cart changes do when a client joins another cart while a change of it
/// is on its way: the change reads the client again inside its transaction, and on finding it
/// moved throws ``ClientMoved``, rolling back; ``following(_:_:)`` runs it again on the
/// shopper the client shares now. Nothing a client sends is written into a cart it has left.
enum ClientMoves {
    /// A change that found its client moved to another shopper (a join committed after the
    /// request read the session), rolled back to run again as `session`.
    struct ClientMoved: Error {
        let session: Session
    }

    /// Runs `change` for `session`, and again for the moved session each time it throws
    /// ``ClientMoved``; a change made after a move names its shopper's live key
    /// (``CartChange/movedToShopperLiveKey``), whose streams must hear it.
    static func following<Result: FollowingClientMoves>(_ session: Session, _ change: (Session) throws -> Result) throws -> Result {
        var session = session
        var movedTo: String?
        for _ in 1...attempts {
            do {
                let made = try change(session)
                return movedTo.map(made.moved(toShopperLiveKey:)) ?? made
            } catch let moved as ClientMoved {
                session = moved.session
                movedTo = moved.session.shopperLiveKey
            }
        }
        throw movedTooOften
    }

    /// How often one change follows its client to another shopper: each time is a join that
    /// committed meanwhile, and three in one change is not a shopper.
    static let attempts = 3

    /// What a change answers whose client kept moving for ``attempts`` turns.
    static let movedTooOften = StorageError.unavailable(reason: "a client moved between carts \(attempts) times during one change")

    /// Runs `place` as ``following(_:_:)`` does, but refuses a placing for a Review page's
    /// intent once its client has moved, as ``CartError/changedSinceShown``: the intent is a
    /// version of the cart the page showed, which names nothing of the cart the client shares
    /// now (whose own orders may carry the same one). A client's `Idempotency-Key` is its own,
    /// and follows the move.
    static func placing(_ placement: OrderPlacement, for session: Session, _ place: (Session) throws -> PlacedOrder) throws -> PlacedOrder {
        try following(session) { current in
            if current.shopperID != session.shopperID, !placement.intent.isIdempotencyKey { throw CartError.changedSinceShown }
            return try place(current)
        }
    }
}

/// What a change that may run again on another shopper answers: it can say which shopper's
/// streams must hear it.
protocol FollowingClientMoves {
    /// This answer, for a change made on the cart of the shopper whose live key is `shopperLiveKey`.
    func moved(toShopperLiveKey shopperLiveKey: String) -> Self
}

extension CartChange: FollowingClientMoves {}

extension PlacedOrder: FollowingClientMoves {
    func moved(toShopperLiveKey shopperLiveKey: String) -> PlacedOrder {
        PlacedOrder(orderID: orderID, change: change?.moved(toShopperLiveKey: shopperLiveKey))
    }
}
