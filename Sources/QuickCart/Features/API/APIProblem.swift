import MicroHTTP

/// An API error as an RFC 9457 problem: a stable `type` per kind of problem
/// (`/api/v1/problems/<slug>`, which answers a short description), a `title`, the `status`, a
/// readable `detail` and, where one field of the request is at fault, its name in `field`.
/// Every API answer that is not a success is one of these, as `application/problem+json`.
struct APIProblem: Error {
    /// The kinds of problem, each with its status and title. The slugs never change: clients
    /// match on them.
    enum Kind: String, CaseIterable, Sendable {
        case invalidJSON = "invalid-json"
        case invalidBody = "invalid-body"
        case invalidValue = "invalid-value"
        case unsupportedMediaType = "unsupported-media-type"
        case bodyTooLarge = "body-too-large"
        case unauthorized
        case notFound = "not-found"
        case methodNotAllowed = "method-not-allowed"
        case staleCart = "stale-cart"
        case emptyCart = "empty-cart"
        case nothingForSale = "nothing-for-sale"
        case productUnavailable = "product-unavailable"
        case rateLimited = "rate-limited"
        case invalidCode = "invalid-code"
        case deliveryRequired = "delivery-required"
        case idempotencyKeyReused = "idempotency-key-reused"
        case badRequest = "bad-request"
        case unavailable
        case internalError = "internal-error"

        var status: HTTPStatus {
            switch self {
            case .invalidJSON, .invalidBody, .badRequest: .badRequest
            case .invalidValue, .invalidCode, .deliveryRequired, .idempotencyKeyReused: .unprocessableContent
            case .unsupportedMediaType: .unsupportedMediaType
            case .bodyTooLarge: .contentTooLarge
            case .unauthorized: .unauthorized
            case .notFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            case .staleCart: .preconditionFailed
            case .emptyCart, .nothingForSale, .productUnavailable: .conflict
            case .rateLimited: .tooManyRequests
            case .unavailable: .serviceUnavailable
            case .internalError: .internalServerError
            }
        }

        var title: String {
            switch self {
            case .invalidJSON: "The body is not JSON"
            case .invalidBody: "The body does not fit this request"
            case .invalidValue: "A value is out of range"
            case .unsupportedMediaType: "The body must be JSON"
            case .bodyTooLarge: "The body is too large"
            case .unauthorized: "A valid bearer token is needed"
            case .notFound: "Not found"
            case .methodNotAllowed: "Method not allowed"
            case .staleCart: "The cart changed since it was read"
            case .emptyCart: "The cart is empty"
            case .nothingForSale: "Nothing in the cart is for sale"
            case .productUnavailable: "The product is no longer for sale"
            case .rateLimited: "Too many requests"
            case .invalidCode: "The code is not valid"
            case .deliveryRequired: "Delivery details are needed"
            case .idempotencyKeyReused: "The Idempotency-Key was used for another request"
            case .badRequest: "The request cannot be read"
            case .unavailable: "The shop cannot serve this right now"
            case .internalError: "Something went wrong on the shop's side"
            }
        }

        /// What `GET /api/v1/problems/<slug>` says about it.
        var explanation: String {
            switch self {
            case .invalidJSON: "The request body is not well-formed JSON in UTF-8. Nothing was changed."
            case .invalidBody: "The JSON has a field this request does not take, lacks one it needs, or has a value of the wrong type (a number sent as a string, say); `field` names it. Nothing was changed."
            case .invalidValue: "A value has the right type but is outside what it may be (a quantity outside 1...10, an unknown product); `field` names it. Nothing was changed."
            case .unsupportedMediaType: "A request with a body must send it with one `Content-Type: application/json` field (a charset only as `utf-8`). Nothing was changed."
            case .bodyTooLarge: "Request bodies are limited to 16 KiB. Nothing was changed."
            case .unauthorized: "Send `Authorization: Bearer TOKEN` with a token from `POST /api/v1/clients`. A token signed out from the devices list, or idle past the shop's idle lifetime, no longer works: create a new client."
            case .notFound: "There is nothing at this address, or it is not this shopper's."
            case .methodNotAllowed: "This address does not take this method; `Allow` lists those it takes."
            case .staleCart: "`If-Match` named a cart version that is no longer current, or checkout's cart (or the `lines` it was sent) is not the cart as it is now. The answer holds the current cart (`cart`) and its `ETag`; apply the change to it again, or show it again, if it still makes sense."
            case .emptyCart: "Checkout needs a cart with something in it."
            case .nothingForSale: "No line of the cart is for sale any more; remove those lines first."
            case .productUnavailable: "The product is no longer for sale, so no more of it can be added."
            case .rateLimited: "Too many requests of this kind from this address; wait for `Retry-After` seconds."
            case .invalidCode: "The code is mistyped, used already, expired or void. Ask the other device for a new one."
            case .deliveryRequired: "Checkout needs delivery details: send them as `delivery`, or save them on the web's checkout. Nothing was changed."
            case .idempotencyKeyReused: "The key placed an order for another request (other delivery details, or a body that cannot be read). A new order needs a new key; nothing was changed."
            case .badRequest: "The request is malformed (its address or headers)."
            case .unavailable: "Storage cannot be reached or written just now; nothing was changed. Retry after `Retry-After` seconds."
            case .internalError: "The shop failed to answer; the failure is in its log. Retrying may work."
            }
        }

        var type: String { "/api/v1/problems/" + rawValue }
    }

    let kind: Kind
    /// The kind's status, unless the server refused the request with a status of its own.
    var status: HTTPStatus
    let detail: String
    /// The request field at fault, when there is one.
    var field: String?
    /// Extra header fields the answer carries (`WWW-Authenticate`, `Retry-After`, `Allow`, `ETag`).
    var headers: [(name: String, value: String)] = []
    /// A JSON value sent as the `cart` member (the current cart of a `stale-cart` problem).
    var cart: [UInt8]?

    init(_ kind: Kind, _ detail: String, field: String? = nil, headers: [(name: String, value: String)] = []) {
        self.kind = kind
        status = kind.status
        self.detail = detail
        self.field = field
        self.headers = headers
    }

    /// The answer: `application/problem+json`, never cached.
    var response: Response {
        var json = JSONWriter(capacity: 256 + (cart?.count ?? 0))
        json.object { json in
            json.field("type") { $0.string(kind.type) }
            json.field("title") { $0.string(kind.title) }
            json.field("status") { $0.number(status.code) }
            json.field("detail") { $0.string(detail) }
            if let field { json.field("field") { $0.string(field) } }
            if let cart { json.field("cart") { $0.raw(cart) } }
        }
        var response = Response(status: status, headers: ["Content-Type": "application/problem+json"], body: .bytes(json.bytes))
        response.headers["Cache-Control"] = "no-store"
        for header in headers { response.headers[header.name] = header.value }
        return response
    }

    /// The problem for an error the router or the server raised on an API address (404, 405,
    /// 413, a malformed request): the same status, as a problem.
    static func from(_ error: HTTPError) -> APIProblem {
        let kind: Kind = switch error.status.code {
        case 404: .notFound
        case 405: .methodNotAllowed
        case 413: .bodyTooLarge
        case 415: .unsupportedMediaType
        case 429: .rateLimited
        case 503: .unavailable
        case 401: .unauthorized
        case 500: .internalError
        default: .badRequest
        }
        var problem = APIProblem(kind, error.message)
        problem.headers = error.headers.map { (name: $0.name, value: $0.value) }
        // A status with no kind of its own (a 414, a 431) keeps its code.
        problem.status = error.status
        return problem
    }
}
