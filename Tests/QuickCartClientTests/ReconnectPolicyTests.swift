@testable import QuickCartClient
import Testing

@Suite("The stream's backoff")
struct ReconnectPolicyTests {
    @Test("The first try waits the reconnection time, each failure after it doubles the wait, up to the cap")
    func doublesUpToTheCap() {
        let policy = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30))
        #expect((0...6).map { policy.delay(base: .seconds(2), failures: $0) } == [2, 4, 8, 16, 30, 30, 30].map { .seconds($0) })
        #expect(policy.delay(base: .seconds(2), failures: 1_000) == .seconds(30))
        #expect(policy.delay(base: .seconds(45), failures: 0) == .seconds(30), "a retry: above the cap is held to it")
    }
}
