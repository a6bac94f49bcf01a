/// An error that becomes an HTTP answer: a status and a message a person can read.
///
/// Handlers throw it for bad input; the router turns it into an error page. Any other error
/// thrown by a handler becomes a plain 500 whose details go only to the log. The errors the
/// server and the router make themselves carry a ``Reason``, a stable name an application
/// words its own way, rather than matching the English `message`.
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
    /// Why the server or the router refused, for the errors they make; `nil` for a handler's own.
    public var reason: Reason?

    /// Why MicroHTTP itself refused a request: stable names, whatever `message` says.
    public enum Reason: Sendable, Hashable {
        /// The target has a malformed percent-escape or text that is not UTF-8.
        case malformedAddress
        /// The form body cannot be decoded (or has a malformed percent-escape).
        case malformedForm
        /// The form holds text that is not UTF-8.
        case formNotUTF8
        /// The form has more fields than the server takes.
        case tooManyFormFields
        /// `Content-Length` is given more than once.
        case repeatedLength
        /// `Transfer-Encoding` names a coding other than `chunked` alone (501).
        case unknownTransferCoding
        /// The request target is longer than the server accepts.
        case targetTooLong
        /// The header fields are larger, or more, than the server accepts.
        case headerFieldsTooLarge
        /// An HTTP/1.1 request has no `Host` field.
        case missingHost
        /// A request has more than one `Host` field.
        case repeatedHost
        /// A header field's name is not a token: empty (`: value`), or holding a space, a tab
        /// or another byte no name may have; its connection is closed.
        case malformedField
        /// The host (the `Host` field, or an absolute target's) is not `host[:port]`.
        case malformedHost
        /// The body is larger than the server accepts.
        case bodyTooLarge
        /// The server is stopping.
        case shuttingDown
        /// No more event streams are taken, from this address or at all.
        case tooManyStreams
        /// No route (or static file) answers the address.
        case notFound
        /// The route does not take the method.
        case methodNotAllowed
        /// A handler threw something other than an ``HTTPError``.
        case internalError
    }

    /// Creates an error with a status, a readable message, why (for the server's own errors)
    /// and optional headers.
    public init(_ status: HTTPStatus, _ message: String? = nil, reason: Reason? = nil, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.reason = reason
        self.headers = headers
    }

    /// The status and the message, for logs.
    public var description: String { "\(status): \(message)" }
}
