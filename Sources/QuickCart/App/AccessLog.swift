import Dispatch
import MicroHTTP

/// One line per request the router sees (static files are answered by the server before it),
/// on standard error through a ``BufferedLog``: client address, method, path, status, bytes,
/// duration and a short, keyed hash of the session — enough to follow one shopper through the
/// log, never the session id itself (the log must not hand out sessions). The line is built by
/// ``LogLine/access(client:method:path:status:bodyBytes:microseconds:session:sent:)``, which
/// makes every field printable.
///
/// A line is written when the server is done with the request (``completed(_:_:)``), so it can
/// say whether the answer went out: one that libmicrohttpd could not send (the connection's
/// memory could not hold its header, or the client left first) shows `200!unsent`. The duration
/// runs from the handler's start to then. An event stream's line is written when the stream
/// ends; a stream the server refused to open is logged as the error page the client got instead.
///
/// `203.0.113.7 GET /cart 200 7125B 0.84ms s=3fa2c1d09b`
struct AccessLog: Middleware {
    /// Where lines go, each with its line break.
    var write: @Sendable (String) -> Void

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        try next(request)
    }

    func completed(_ request: Request, _ delivery: Delivery) {
        write(LogLine.access(
            client: request.remoteAddress, method: request.method.rawValue, path: request.path, status: delivery.status.code,
            bodyBytes: delivery.bodyBytes, microseconds: (DispatchTime.now().uptimeNanoseconds - delivery.startedAt) / 1000,
            session: Self.sessionTag(request), sent: delivery.isSent
        ))
    }

    /// 40 bits of the cookie's signature, or `-` without one. The signature is an HMAC of
    /// the id and issue time under the shop's secret, so it tells sessions apart without revealing the id.
    /// Either cookie name will do: browsers keep the `__Host-` one only where the shop set it
    /// (with `--secure-cookies`), and looking up two names costs no more than one.
    private static func sessionTag(_ request: Request) -> String {
        guard let cookie = request.cookies[SessionManager.hostOnlyCookieName] ?? request.cookies[SessionManager.cookieName],
              let dot = cookie.utf8.lastIndex(of: UInt8(ascii: ".")) else { return "-" }
        let signature = cookie[cookie.index(after: dot)...]
        return signature.utf8.count >= 10 ? String(signature.prefix(10)) : "-"
    }
}
