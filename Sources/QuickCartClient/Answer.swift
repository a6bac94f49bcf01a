import Foundation

/// A server's answer, as the client reads it: status, the few headers it uses, and the body.
struct Answer: Sendable {
    let status: Int
    let contentType: String?
    let retryAfter: String?
    /// `Idempotent-Replayed`.
    let replayed: String?
    let body: Data

    /// The body decoded from JSON as `Result`; dates are ISO 8601.
    func decode<Result: Decodable>(_ type: Result.Type) throws(QuickCartError) -> Result {
        do {
            return try Self.decoder().decode(Result.self, from: body)
        } catch {
            throw .unexpectedResponse(status: status, description: "the body does not decode as \(Result.self): \(error)")
        }
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The error a non-2xx answer stands for: the case of its problem type, or
    /// ``QuickCartError/unexpectedResponse(status:description:)`` without problem details.
    var error: QuickCartError {
        let text = String(decoding: body.prefix(500), as: UTF8.self)
        guard contentType?.lowercased().hasPrefix("application/problem+json") == true,
              let problem = try? Self.decoder().decode(Problem.self, from: body)
        else {
            return .unexpectedResponse(status: status, description: text)
        }
        let cart = (try? Self.decoder().decode(StaleCartMember.self, from: body))?.cart
        return QuickCartError(problem, cart: cart, retryAfter: retryAfterDuration)
    }

    /// `Retry-After` in seconds (the API sends seconds, never a date).
    var retryAfterDuration: Duration? {
        retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { .seconds($0) }
    }

    /// A `stale-cart` problem's extension member.
    private struct StaleCartMember: Decodable {
        let cart: Cart?
    }
}

extension QuickCartError {
    /// A failure of URLSession: a cancellation, or a transport error.
    init(transport error: any Error) {
        if error is CancellationError || (error as? URLError)?.code == .cancelled {
            self = .cancelled
        } else {
            self = .transport(error)
        }
    }
}
