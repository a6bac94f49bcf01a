/// A complete HTTP request as a handler sees it: decoded, validated and immutable.
///
/// Paths, query and form values are percent-decoded by libmicrohttpd; the server has already
/// rejected malformed escapes and invalid UTF-8 with 400, and oversized bodies with 413.
///
/// A request is passed down the middleware to its handler and kept for the access log, so it
/// is copied several times a request: what the client sent is held in one shared box, copied
/// only when a copy is changed, and a copy costs one reference instead of one per field.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod {
        get { box.sent.method }
        set { unique().sent.method = newValue }
    }
    /// The decoded path, without the query, e.g. `/cart/items/3/quantity`. In a request the
    /// server refuses because its path is not UTF-8, each bad byte reads as U+FFFD, so that the
    /// refusal can still be answered in the manner of the part of the site it was meant for.
    /// A path sent with an escaped slash (`%2F`) is refused with 404: decoded, it would split
    /// where the client did not.
    public var path: String {
        get { box.sent.path }
        set { unique().sent.path = newValue }
    }
    /// The request target as the client sent it: path and query, still percent-encoded, with
    /// any byte outside ASCII percent-encoded. Kept only for a responder that asks for it
    /// (``HTTPResponder/readsRawTargets``); empty otherwise.
    public var target: String {
        get { box.sent.target }
        set { unique().sent.target = newValue }
    }
    /// The decoded query parameters.
    public var query: Parameters {
        get { box.sent.query }
        set { unique().sent.query = newValue }
    }
    /// The request's header fields.
    public var headers: HTTPHeaders {
        get { box.sent.headers }
        set { unique().sent.headers = newValue }
    }
    /// Cookies sent by the client, in order (``Cookies``: its subscript finds the first of a name).
    public var cookies: Cookies {
        get { box.sent.cookies }
        set { unique().sent.cookies = newValue }
    }
    /// Fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: Parameters {
        get { box.sent.form }
        set { unique().sent.form = newValue }
    }
    /// The raw body, for any other content type; empty for forms.
    public var body: [UInt8] {
        get { box.sent.body }
        // In place: the server appends each piece of an upload as it arrives.
        _modify { yield &unique().sent.body }
    }
    /// The client's IP address as text: the peer's, or, when the peer is one of the configured
    /// ``Server/Configuration/trustedProxies``, the client its `X-Forwarded-For` names.
    public var remoteAddress: String {
        get { box.sent.remoteAddress }
        set { unique().sent.remoteAddress = newValue }
    }
    /// Values captured by the matched route pattern, e.g. `["id": "3"]`; set by ``Router``.
    /// Kept beside the box: setting them, once a request, does not copy what was sent.
    public var routeParameters: [String: String]

    private var box: Box

    /// Creates a request; the server builds these, tests may too.
    public init(
        method: HTTPMethod,
        path: String,
        target: String = "",
        query: Parameters = Parameters(),
        headers: HTTPHeaders = HTTPHeaders(),
        cookies: Cookies = Cookies(),
        form: Parameters = Parameters(),
        body: [UInt8] = [],
        remoteAddress: String = "",
        routeParameters: [String: String] = [:]
    ) {
        box = Box(Sent(
            method: method, path: path, target: target, query: query, headers: headers, cookies: cookies, form: form, body: body, remoteAddress: remoteAddress
        ))
        self.routeParameters = routeParameters
    }

    /// The box, copied first when another request shares it.
    private mutating func unique() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.sent) }
        return box
    }

    /// What the client sent.
    private struct Sent {
        var method: HTTPMethod
        var path: String
        var target: String
        var query: Parameters
        var headers: HTTPHeaders
        var cookies: Cookies
        var form: Parameters
        var body: [UInt8]
        var remoteAddress: String
    }

    /// The box of what was sent. It changes only through ``Request/unique()``, which copies a
    /// box before changing it unless this request holds the only reference: no two threads
    /// ever see one box change, so it is safe to send, and no access overlaps a change, so
    /// the runtime's exclusivity check (a call on every read of a class's `var`) is left out.
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var sent: Sent

        init(_ sent: Sent) {
            self.sent = sent
        }
    }
}
