import HTTPTesting
import MicroHTTP
import Testing

/// The errors the server and the router make carry a stable reason, whatever their sentence
/// says, so an application can word them its own way; a handler's own error carries none.
@Suite struct ErrorReasonTests {
    /// The echo router whose error pages show the error's reason and nothing else.
    static func reasonRouter() -> Router {
        var router = Router(renderError: { error, _ in
            .text(error.reason.map { "\($0)" } ?? "none", status: error.status)
        })
        router.get("/") { _ in .text("home") }
        router.post("/form") { request in .text(request.form.map(\.value).joined()) }
        router.get("/fail") { _ in throw HTTPError(.badRequest, "Nope") }
        router.get("/crash") { _ in
            struct Boom: Error {}
            throw Boom()
        }
        return router
    }

    @Test("Each refusal of the server and the router names its reason", arguments: [
        ("GET /?q=%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "malformedAddress"),
        ("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 6\r\n\r\na=1%zz", 400, "malformedForm"),
        ("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\na=%ff", 400, "formNotUTF8"),
        ("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400, "repeatedLength"),
        ("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 404, "notFound"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405, "methodNotAllowed"),
        ("GET /crash HTTP/1.1\r\nHost: x\r\n\r\n", 500, "internalError"),
        ("GET /fail HTTP/1.1\r\nHost: x\r\n\r\n", 400, "none"),
    ])
    func refusalsNameTheirReason(request: String, status: Int, reason: String) throws {
        let live = try LiveServer(Self.reasonRouter())
        let client = try live.client()
        try client.send(request)
        let response = try client.readResponse()
        #expect(response.status == status, "\(response)")
        #expect(response.text == reason, "\(response)")
    }
}
