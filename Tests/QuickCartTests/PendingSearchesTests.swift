@testable import QuickCart
import Testing

@Suite("Pending searches") struct PendingSearchesTests {
    @Test("Newest first, one spelling per search, at most the storage's limit")
    func keepsTheStoragesRule() {
        let pending = PendingSearches()
        for query in ["tent", "stove", "Tent", "map", "bottle", "boots", "cap"] { pending.record(query, for: "a") }
        #expect(pending.recent(for: "a") == ["cap", "boots", "bottle", "map", "Tent"])
        #expect(pending.recent(for: "b").isEmpty, "each session has its own")
    }

    @Test("Taking the searches forgets them")
    func takeForgets() {
        let pending = PendingSearches()
        pending.record("tent", for: "a")
        #expect(pending.take(for: "a") == ["tent"])
        #expect(pending.recent(for: "a").isEmpty && pending.take(for: "a").isEmpty)
    }

    @Test("Past its capacity it forgets the sessions that searched least recently")
    func boundedByCapacity() {
        let pending = PendingSearches(capacity: 4)
        for key in ["a", "b", "c", "d"] { pending.record("x", for: key) }
        pending.record("y", for: "a")
        pending.record("x", for: "e")
        #expect(pending.recent(for: "a") == ["y", "x"], "the most recent searcher stays")
        #expect(pending.recent(for: "e") == ["x"])
        #expect(pending.recent(for: "b").isEmpty && pending.recent(for: "c").isEmpty, "the oldest are forgotten")
    }
}
