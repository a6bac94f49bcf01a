/// An error that becomes an HTTP answer: a status and a message a person can read.
///
/// Handlers throw it for bad input; the router turns it into an error page. Any other error
/// thrown by a handler becomes a plain 500 whose details go only to the log.
/// ```swift
/// guard let quantity = Int(text) else {
///     throw HTTPError(.badRequest, "The quantity “\(text)” is not a number.")
/// }
/// ```
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The status to answer with.
    public var status: HTTPStatus
    /// A sentence for the person who sent the request; never contains secrets.
    public var message: String
    /// Extra headers the answer needs, such as `Allow` on a 405.
    public var headers: HTTPHeaders

    /// Creates an error with a status, a readable message and optional headers.
    public init(_ status: HTTPStatus, _ message: String? = nil, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }

    /// The status and the message, for logs.
    public var description: String { "\(status): \(message)" }
}
