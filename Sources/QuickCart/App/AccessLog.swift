import Dispatch
import Foundation
import MicroHTTP

/// One line per request on standard error: method, path, status, bytes, duration and a short,
/// keyed hash of the session — enough to follow one shopper through the log, never the
/// session id itself (the log must not hand out sessions).
///
/// `GET /cart 200 7125B 0.84ms s=3fa2c1d09b`
struct AccessLog: Middleware {
    let key: HMACKey
    /// Where lines go; standard error unless a test listens.
    var write: @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let response = try next(request)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        let bytes = response.body.count.map { "\($0)B" } ?? "stream"
        let line = "\(request.method) \(Self.printable(request.path)) \(response.status.code) \(bytes) \(String(format: "%.2f", milliseconds))ms s=\(sessionTag(request))\n"
        write(line)
        return response
    }

    /// The first 40 bits of an HMAC of the cookie's session id, or `-` without one.
    private func sessionTag(_ request: Request) -> String {
        guard let cookie = request.cookies[SessionManager.cookieName],
              let id = cookie.split(separator: ".").first, !id.isEmpty else { return "-" }
        return Hex.encode(Array(key.authenticate("log|\(id)".utf8).prefix(5)))
    }

    /// Paths are decoded; keep control characters out of the log so a request cannot forge lines.
    private static func printable(_ path: String) -> String {
        String(path.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) }.prefix(200))
    }
}
