import MicroHTTP
import Mustache

/// Error pages in the shop's own layout, tab bar included, with a sentence a person can act on.
struct ErrorPages: Sendable {
    let sessions: SessionManager
    let pages: PageRenderer

    func render(_ error: HTTPError, for request: Request) -> Response {
        // The badge is a courtesy here: an error page must render even when the database cannot.
        let resolution = try? sessions.resolve(request, at: Clock.nowMilliseconds() / 1000)
        let session = resolution?.session
        let count = resolution?.cart.itemCount ?? 0
        let content: MustacheValue = .object([
            "title": .string(Self.title(for: error.status)),
            "message": .string(error.message),
            "backHref": error.status == .notFound ? "/" : "/cart",
            "backLabel": error.status == .notFound ? "Go to Home" : "Back to your cart",
        ])
        var response = pages.render(
            .init(template: "error", title: Self.title(for: error.status), tab: nil, cartCount: count, content: content, returnTo: "/", status: error.status),
            session: session
        )
        for field in error.headers { response.headers[field.name] = field.value }
        return response
    }

    private static func title(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "That didn’t work"
        case 403: "Not allowed"
        case 404: "Page not found"
        case 405: "Not possible here"
        case 413: "Too much data"
        case 503: "Back in a moment"
        default: "Something went wrong"
        }
    }
}
