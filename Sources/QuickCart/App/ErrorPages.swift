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
        let content = ErrorView(
            title: Self.title(for: error.status),
            message: error.message,
            backHref: error.status == .notFound ? "/" : "/cart",
            backLabel: error.status == .notFound ? "Go to Home" : "Back to your cart"
        )
        var response = pages.render(
            content, .init(title: content.title, tab: nil, cartCount: count, returnTo: "/", status: error.status),
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

/// An error page (`error.mustache`): what went wrong, in words, and a way on.
struct ErrorView: PageView {
    let title: String
    let message: String
    let backHref: String
    let backLabel: String

    static let templateName = "error"
    static let template = \PageTemplates.error
    static let mustacheFields: MustacheFields<ErrorView> = [
        "title": .text(\.title),
        "message": .text(\.message),
        "backHref": .text(\.backHref),
        "backLabel": .text(\.backLabel),
    ]
}
