@testable import QuickCart
import Testing

/// What the API adds to the cart store, on both backends: adding several at once (clamped),
/// and changes made on condition of a cart version, checked inside their own transaction.
@Suite("API: conditional cart changes in the stores")
struct APIStoreTests {
    private let now: Int64 = 1_800_000_000

    @Test("add takes a quantity, clamped at 10; a change at the expected version goes through, at another it is refused and writes nothing", arguments: StoreBackend.allCases)
    func conditionalChanges(backend: StoreBackend) throws {
        let storage = try backend.makeLocation().open(emptyCarts: true)
        defer { storage.close() }
        let tent = try storage.product("ultralight-tent")
        let session = TestSessions.new()
        // Never stored: its cart is at version 0, and a stale condition stores nothing.
        #expect(throws: CartError.staleVersion) { try storage.carts.add(productID: tent.id, quantity: 2, for: session, at: now, ifVersion: 3, key: nil) }
        #expect(try storage.sessions.stored(session) == nil, "a refused first change stored its session")
        let first = try storage.carts.add(productID: tent.id, quantity: 4, for: session, at: now, ifVersion: 0, key: nil)
        #expect(first == CartChange(itemCount: 4, version: 1))
        var stored = session
        stored.isStored = true
        #expect(try storage.carts.add(productID: tent.id, quantity: 9, for: stored, at: now, ifVersion: nil, key: nil) == CartChange(itemCount: 10, version: 2))
        #expect(throws: CartError.staleVersion) { try storage.carts.setQuantity(3, of: tent.id, for: stored, at: now, ifVersion: 1, key: nil) }
        #expect(throws: CartError.staleVersion) { try storage.carts.adjustQuantity(by: -1, of: tent.id, for: stored, at: now, ifVersion: 1, key: nil) }
        #expect(throws: CartError.staleVersion) { try storage.carts.remove(productID: tent.id, for: stored, at: now, ifVersion: 1) }
        #expect(try storage.sessions.stored(stored)?.cartVersion == 2, "a refused change bumped the version")
        #expect(try storage.carts.setQuantity(3, of: tent.id, for: stored, at: now, ifVersion: 2, key: nil) == CartChange(itemCount: 3, version: 3))
        #expect(try storage.carts.adjustQuantity(by: 2, of: tent.id, for: stored, at: now, ifVersion: 3, key: nil) == CartChange(itemCount: 5, version: 4))
        #expect(try storage.carts.remove(productID: tent.id, for: stored, at: now, ifVersion: 4) == CartChange(itemCount: 0, version: 5))
    }
}
