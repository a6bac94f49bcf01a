import QuickCartClient
import Testing

/// What a sequence of the client delivered so far, and how it ended.
actor Heard<Element: Sendable> {
    private(set) var values: [Element] = []
    /// `nil` while the sequence runs; then `.success` for a plain end, or its error.
    private(set) var ending: Result<Void, QuickCartError>?

    func append(_ value: Element) { values.append(value) }
    func end(_ result: Result<Void, QuickCartError>) { ending = result }
}

/// Iterates one of the client's sequences (badge counts, events) in a task of its own, as an
/// app's model would, so a test can change the cart and then wait for what the sequence hears.
/// Cancelled when the recording goes.
final class Recording<Element: Sendable>: Sendable {
    let heard = Heard<Element>()
    private let task: Task<Void, Never>

    init<Values: AsyncSequence & Sendable>(_ sequence: Values) where Values.Element == Element, Values.Failure == QuickCartError {
        let heard = heard
        task = Task {
            do {
                for try await value in sequence { await heard.append(value) }
                await heard.end(.success(()))
            } catch {
                await heard.end(.failure(error as? QuickCartError ?? .transport(error)))
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// Waits up to `seconds` for `condition` to hold of what was heard, and returns it. The
    /// default is generous: with every suite running at once under AddressSanitizer, a stream's
    /// first event once took longer than 10 s. A wait that holds returns at once, whatever the limit.
    @discardableResult
    func until(_ seconds: Double = 30, _ condition: @Sendable ([Element]) -> Bool) async -> [Element] {
        let heard = heard
        let held = await poll(for: seconds) {
            let values = await heard.values
            return condition(values) ? values : nil
        }
        if let held { return held }
        return await heard.values
    }

    /// Waits up to `seconds` for the sequence to end, and returns how it ended.
    func ending(within seconds: Double = 30) async -> Result<Void, QuickCartError>? {
        let heard = heard
        return await poll(for: seconds) { await heard.ending }
    }
}

/// Waits up to `seconds` for `condition` to hold, and says whether it did.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    await poll(for: seconds) { condition() ? true : nil } ?? false
}

/// Asks `probe` every 20 ms for up to `seconds` (at least once), and returns its first answer.
private func poll<Value>(for seconds: Double, _ probe: () async -> Value?) async -> Value? {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
        if let value = await probe() { return value }
        guard ContinuousClock.now < deadline else { return nil }
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// The error `call` fails with, or `nil` when it succeeds.
func refusal(of call: () async throws -> some Any) async -> QuickCartError? {
    do {
        _ = try await call()
        return nil
    } catch {
        return error as? QuickCartError ?? .transport(error)
    }
}
