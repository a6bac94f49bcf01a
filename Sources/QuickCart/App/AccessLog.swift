import Dispatch
import MicroHTTP

/// One line per request the router sees (static files are answered by the server before it),
/// on standard error through a ``BufferedLog``: method, path, status, bytes, duration and a short,
/// keyed hash of the session — enough to follow one shopper through the log, never the
/// session id itself (the log must not hand out sessions).
///
/// `GET /cart 200 7125B 0.84ms s=3fa2c1d09b`
struct AccessLog: Middleware {
    /// Where lines go, each with its line break.
    var write: @Sendable (String) -> Void

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let response = try next(request)
        let microseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1000
        // Appended piece by piece into one reserved string: interpolating non-string values
        // goes through their descriptions, which cost more than the rest of the line.
        var line = ""
        line.reserveCapacity(160)
        line += request.method.rawValue
        line += " "
        line += Self.printable(request.path)
        line += " "
        line += String(response.status.code)
        line += " "
        if let count = response.body.count {
            line += String(count)
            line += "B "
        } else {
            line += "stream "
        }
        line += Self.milliseconds(microseconds)
        line += "ms s="
        line += Self.sessionTag(request)
        line += "\n"
        write(line)
        return response
    }

    /// 40 bits of the cookie's signature, or `-` without one. The signature is an HMAC of
    /// the id and issue time under the shop's secret, so it tells sessions apart without revealing the id.
    private static func sessionTag(_ request: Request) -> String {
        guard let cookie = request.cookies[SessionManager.cookieName],
              let dot = cookie.utf8.lastIndex(of: UInt8(ascii: ".")) else { return "-" }
        let signature = cookie[cookie.index(after: dot)...]
        return signature.utf8.count >= 10 ? String(signature.prefix(10)) : "-"
    }

    /// "0.84" from 842 µs, without Foundation's formatter on every request.
    private static func milliseconds(_ microseconds: UInt64) -> String {
        let fraction = (microseconds % 1000) / 10
        return String(microseconds / 1000) + (fraction < 10 ? ".0" : ".") + String(fraction)
    }

    /// Paths are decoded; keep control characters out of the log so a request cannot forge lines.
    private static func printable(_ path: String) -> String {
        let clipped = path.utf8.count > 200 ? String(path.prefix(200)) : path
        // Most paths are plain: check bytes first, look at Unicode categories only if needed.
        guard clipped.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return clipped }
        return String(clipped.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    }
}
