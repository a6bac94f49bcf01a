/// What a call of ``QuickCartClient`` can fail with: one case per problem type the server
/// answers with (RFC 9457 problem details, chosen by the type's slug), and the failures
/// around them.
public enum QuickCartError: Error, Sendable, CustomStringConvertible {
    /// 412 `stale-cart`: the cart changed since the version sent in `If-Match`. `current` is
    /// the cart as it is now; redo the change from it (or show it).
    case staleCart(current: Cart, problem: Problem)
    /// 401 `unauthorized`: no token, a bad one, or one whose device was signed out. Make a
    /// new client (or join again); this token never works again.
    case unauthorized(Problem)
    /// 404 `not-found`: no such product, order or device (or not this shopper's).
    case notFound(Problem)
    /// 429 `rate-limited`: too many new clients (or codes) from this address; try again after
    /// `retryAfter`, when the server said.
    case rateLimited(retryAfter: Duration?, problem: Problem)
    /// 422 `invalid-value`: a value out of range (a quantity not in 1...10, a device name too
    /// long, a product id that is no product), naming the body's `field`.
    case invalidValue(field: String?, problem: Problem)
    /// 400 `invalid-body`: valid JSON of the wrong shape (an unknown field, a wrong type),
    /// naming the body's `field`.
    case invalidBody(field: String?, problem: Problem)
    /// 400 `invalid-json`: the body was not JSON.
    case invalidJSON(Problem)
    /// 415 `unsupported-media-type`: the body was not sent as `application/json`.
    case unsupportedMediaType(Problem)
    /// 413 `body-too-large`: the body was over the server's limit.
    case bodyTooLarge(Problem)
    /// 405 `method-not-allowed`.
    case methodNotAllowed(Problem)
    /// 409 `empty-cart`: checkout of a cart with nothing in it.
    case emptyCart(Problem)
    /// 409 `nothing-for-sale`: checkout of a cart whose lines are all no longer for sale.
    case nothingForSale(Problem)
    /// 422 `delivery-required`: checkout with no delivery details sent and none saved.
    case deliveryRequired(Problem)
    /// 409 `product-unavailable`: adding to (or raising) a product no longer for sale.
    case productUnavailable(Problem)
    /// 422 `invalid-code`: the join code is wrong, expired or used.
    case invalidCode(Problem)
    /// 400 `bad-request`: a malformed header (an `Idempotency-Key` that is not 1 to 255
    /// visible ASCII characters), named in `field`.
    case badRequest(field: String?, problem: Problem)
    /// 500 `internal-error`: the shop failed; nothing is known to have changed.
    case internalError(Problem)
    /// 503 `unavailable`: the shop cannot serve now; try again after `retryAfter` when the
    /// server said.
    case unavailable(retryAfter: Duration?, problem: Problem)
    /// A problem type this version of the client does not know.
    case otherProblem(Problem)
    /// An answer that is not what the API describes (a status without a problem body, or a
    /// body that does not decode).
    case unexpectedResponse(status: Int, description: String)
    /// The request did not reach the server, or its answer did not arrive.
    case transport(any Error)
    /// The task was cancelled.
    case cancelled

    /// Maps a problem (and its answer's `Retry-After`, in seconds) to its case; `cart` is a
    /// `stale-cart` problem's current cart.
    init(_ problem: Problem, cart: Cart?, retryAfter: Duration?) {
        switch problem.slug {
        case "stale-cart":
            if let cart {
                self = .staleCart(current: cart, problem: problem)
            } else {
                self = .unexpectedResponse(status: problem.status, description: "a stale-cart problem without its cart")
            }
        case "unauthorized": self = .unauthorized(problem)
        case "not-found": self = .notFound(problem)
        case "rate-limited": self = .rateLimited(retryAfter: retryAfter, problem: problem)
        case "invalid-value": self = .invalidValue(field: problem.field, problem: problem)
        case "invalid-body": self = .invalidBody(field: problem.field, problem: problem)
        case "invalid-json": self = .invalidJSON(problem)
        case "unsupported-media-type": self = .unsupportedMediaType(problem)
        case "body-too-large": self = .bodyTooLarge(problem)
        case "method-not-allowed": self = .methodNotAllowed(problem)
        case "empty-cart": self = .emptyCart(problem)
        case "nothing-for-sale": self = .nothingForSale(problem)
        case "delivery-required": self = .deliveryRequired(problem)
        case "product-unavailable": self = .productUnavailable(problem)
        case "invalid-code": self = .invalidCode(problem)
        case "bad-request": self = .badRequest(field: problem.field, problem: problem)
        case "internal-error": self = .internalError(problem)
        case "unavailable": self = .unavailable(retryAfter: retryAfter, problem: problem)
        default: self = .otherProblem(problem)
        }
    }

    /// The problem details the server sent, for the cases that carry them.
    public var problem: Problem? {
        switch self {
        case .staleCart(_, let problem), .rateLimited(_, let problem), .invalidValue(_, let problem),
             .invalidBody(_, let problem), .badRequest(_, let problem), .unavailable(_, let problem):
            problem
        case .unauthorized(let problem), .notFound(let problem), .invalidJSON(let problem), .unsupportedMediaType(let problem),
             .bodyTooLarge(let problem), .methodNotAllowed(let problem), .emptyCart(let problem), .nothingForSale(let problem),
             .deliveryRequired(let problem), .productUnavailable(let problem), .invalidCode(let problem), .internalError(let problem), .otherProblem(let problem):
            problem
        case .unexpectedResponse, .transport, .cancelled:
            nil
        }
    }

    /// What went wrong, for logs.
    public var description: String {
        switch self {
        case .unexpectedResponse(let status, let description): "unexpected answer \(status): \(description)"
        case .transport(let error): "transport: \(error)"
        case .cancelled: "cancelled"
        default: problem.map(\.description) ?? "problem"
        }
    }
}
