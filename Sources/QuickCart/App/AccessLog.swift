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
    /// Lines as JSON objects (`--log-format json`) instead of text.
    var json = false

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        try next(request)
    }

    func completed(_ request: Request, _ delivery: Delivery) {
        let microseconds = (DispatchTime.now().uptimeNanoseconds - delivery.startedAt) / 1000
        let line = json ? JSONLogLine.access : LogLine.access
        write(line(
            request.remoteAddress, request.method.rawValue, request.path, delivery.status.code,
            delivery.bodyBytes, microseconds, Self.sessionTag(request), delivery.isSent
        ))
    }

    /// 40 bits of the cookie's signature, or `-` without one. The signature is an HMAC of
    /// the id and issue time under the shop's secret, so it tells sessions apart without revealing the id.
    /// Either cookie name will do: browsers keep the `__Host-` one only where the shop set it
    /// (with `--secure-cookies`), which is preferred when both came.
    private static func sessionTag(_ request: Request) -> String {
        // One walk over the cookie or two a request carries finds either name; the first of
        // a name counts, as everywhere.
        var plain: String?
        for (name, value) in request.cookies {
            if name == SessionManager.hostOnlyCookieName { return tag(of: value) }
            if plain == nil, name == SessionManager.cookieName { plain = value }
        }
        return plain.map(tag(of:)) ?? "-"
    }

    /// The first ten characters after the cookie's last dot, or `-` when fewer than ten bytes follow it.
    private static func tag(of cookie: String) -> String {
        var cookie = cookie
        let plainTag = cookie.withUTF8 { bytes -> String? in
            guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return "-" }
            let signature = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
            guard signature.count >= 10 else { return "-" }
            // Ten visible ASCII bytes followed by ASCII (or nothing) are ten whole characters.
            guard signature.prefix(10).allSatisfy({ $0 > 0x20 && $0 < 0x7F }), signature.count == 10 || signature[10] < 0x80 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: signature.prefix(10)), as: UTF8.self)
        }
        if let plainTag { return plainTag }
        guard let dot = cookie.utf8.lastIndex(of: UInt8(ascii: ".")) else { return "-" }
        return String(cookie[cookie.index(after: dot)...].prefix(10))
    }
}
