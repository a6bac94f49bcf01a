/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code, e.g. `404`.
    public let code: Int
    /// The standard reason phrase, e.g. `"Not Found"`.
    public let reasonPhrase: String

    /// Creates a status; prefer the static members for standard codes.
    public init(code: Int, reasonPhrase: String) {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    /// 200 OK.
    public static let ok = HTTPStatus(code: 200, reasonPhrase: "OK")
    /// 201 Created.
    public static let created = HTTPStatus(code: 201, reasonPhrase: "Created")
    /// 204 No Content.
    public static let noContent = HTTPStatus(code: 204, reasonPhrase: "No Content")
    /// 303 See Other.
    public static let seeOther = HTTPStatus(code: 303, reasonPhrase: "See Other")
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(code: 304, reasonPhrase: "Not Modified")
    /// 400 Bad Request.
    public static let badRequest = HTTPStatus(code: 400, reasonPhrase: "Bad Request")
    /// 401 Unauthorized.
    public static let unauthorized = HTTPStatus(code: 401, reasonPhrase: "Unauthorized")
    /// 403 Forbidden.
    public static let forbidden = HTTPStatus(code: 403, reasonPhrase: "Forbidden")
    /// 404 Not Found.
    public static let notFound = HTTPStatus(code: 404, reasonPhrase: "Not Found")
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPStatus(code: 405, reasonPhrase: "Method Not Allowed")
    /// 409 Conflict.
    public static let conflict = HTTPStatus(code: 409, reasonPhrase: "Conflict")
    /// 412 Precondition Failed.
    public static let preconditionFailed = HTTPStatus(code: 412, reasonPhrase: "Precondition Failed")
    /// 413 Content Too Large.
    public static let contentTooLarge = HTTPStatus(code: 413, reasonPhrase: "Content Too Large")
    /// 414 URI Too Long.
    public static let uriTooLong = HTTPStatus(code: 414, reasonPhrase: "URI Too Long")
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPStatus(code: 415, reasonPhrase: "Unsupported Media Type")
    /// 422 Unprocessable Content.
    public static let unprocessableContent = HTTPStatus(code: 422, reasonPhrase: "Unprocessable Content")
    /// 429 Too Many Requests.
    public static let tooManyRequests = HTTPStatus(code: 429, reasonPhrase: "Too Many Requests")
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reasonPhrase: "Request Header Fields Too Large")
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPStatus(code: 500, reasonPhrase: "Internal Server Error")
    /// 501 Not Implemented.
    public static let notImplemented = HTTPStatus(code: 501, reasonPhrase: "Not Implemented")
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPStatus(code: 503, reasonPhrase: "Service Unavailable")

    /// The code and the reason phrase, e.g. `404 Not Found`.
    public var description: String { "\(code) \(reasonPhrase)" }
}
