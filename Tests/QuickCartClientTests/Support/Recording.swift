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
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            let values = await heard.values
            if condition(values) { return values }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await heard.values
    }

    /// Waits up to `seconds` for the sequence to end, and returns how it ended.
    func ending(within seconds: Double = 30) async -> Result<Void, QuickCartError>? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let ending = await heard.ending { return ending }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}

/// Waits up to `seconds` for `condition` to hold, and says whether it did.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
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
