/// How the server's answer to one request ended, told to the responder (and through a
/// ``Router`` to its middleware) once libmicrohttpd is done with the request.
public struct Delivery: Sendable {
    /// The status answered: for an event stream the server refused to open, the error page's.
    public var status: HTTPStatus
    /// The body's byte count; `nil` for an event stream.
    public var bodyBytes: Int?
    /// When the responder was called, in `DispatchTime` uptime nanoseconds.
    public var startedAt: UInt64
    /// Whether the answer went out in full. It did not when libmicrohttpd refused to queue it,
    /// could not fit its header in the connection's memory, or lost the client first. An event
    /// stream counts as sent once queued: its client leaving is how it ends.
    public var isSent: Bool
    /// The answer's ``Response/routeSlot``: which route answered, `-1` for none.
    public var routeSlot: Int

    /// Creates a report.
    public init(status: HTTPStatus, bodyBytes: Int?, startedAt: UInt64, isSent: Bool, routeSlot: Int = -1) {
        self.status = status
        self.bodyBytes = bodyBytes
        self.startedAt = startedAt
        self.isSent = isSent
        self.routeSlot = routeSlot
    }
}
