import MicroHTTP
import Mustache

/// Error pages in the shop's own layout, tab bar included, with a sentence a person can act on.
struct ErrorPages: Sendable {
    let sessionManager: SessionManager
    let page: ShopPage<ErrorView>
    let clock: Clock

    func render(_ error: HTTPError, for request: Request) -> Response {
        // The API answers problems, never pages: an unknown address under it, a method it does
        // not take, a body the server refused before routing.
        if request.path == "/api" || request.path.hasPrefix("/api/") { return APIProblem.from(error).response }
        // The badge is a courtesy here: an error page must render even when the database cannot.
        let resolution = try? sessionManager.resolve(request, at: clock.nowMilliseconds() / 1000)
        let session = resolution?.session
        let count = resolution?.cart.itemCount ?? 0
        let back = Self.wayBack(for: error.status, request)
        let content = ErrorView(
            title: Self.title(for: error.status),
            message: error.reason.flatMap(Self.shopperWording(for:)) ?? error.message,
            backHref: back.href,
            backLabel: back.label
        )
        var response = page.render(
            content, .init(title: content.title, tab: nil, cartCount: count, returnTo: "/", status: error.status),
            session: session
        )
        for field in error.headers { response.headers[field.name] = field.value }
        // A page like any other: its forms (the layout button) carry the session's CSRF token,
        // so a browser that came without a session is given the new one's cookie, as a page
        // gives it, or its first post from here would be refused.
        if let resolution, resolution.isNew, let cookie = resolution.cookie { response.setCookie(cookie) }
        return response
    }

    /// Where the page's button leads: the page the shopper came from (a form's `return_to`, or
    /// the `Referer` when it is this site's), else the tab the failed address belongs to (an
    /// order not found leads back to Profile, which lists the orders), else Home.
    static func wayBack(for status: HTTPStatus, _ request: Request) -> (href: String, label: String) {
        if let form = request.form["return_to"], ShopRequest.isLocalPath(form) {
            return (form, label(for: form))
        }
        // A page that failed to load again is no way back to itself.
        if let referer = sameOriginPath(request.headers["Referer"], host: request.headers["Host"]),
           request.method != .get || referer.prefix(while: { $0 != "?" }) != request.path {
            return (referer, label(for: referer))
        }
        let tab = TabBar.TabID(of: request.path)
        if status == .notFound, tab == .home { return (TabBar.TabID.home.path, "Go to Home") }
        return (tab.path, tab.wayBackLabel)
    }

    /// The path and query of `referer` when it names this site (scheme http or https, the
    /// request's own `Host`), else `nil`: a link from elsewhere is no way back.
    static func sameOriginPath(_ referer: String?, host: String?) -> String? {
        guard let referer, let host, !host.isEmpty else { return nil }
        for scheme in ["http://", "https://"] where referer.lowercased().hasPrefix(scheme + host.lowercased()) {
            let rest = String(referer.dropFirst(scheme.count + host.count))
            let path = rest.isEmpty ? "/" : rest
            guard path.hasPrefix("/") else { return nil }
            let withoutFragment = String(path.prefix { $0 != "#" })
            return ShopRequest.isLocalPath(withoutFragment) ? withoutFragment : nil
        }
        return nil
    }

    /// The button's words for going back to `path`, named after its tab.
    static func label(for path: String) -> String {
        TabBar.TabID(of: String(path.prefix { $0 != "?" && $0 != "#" })).wayBackLabel
    }

    /// What the shop says for a request MicroHTTP could not read, in words a shopper
    /// understands, by the error's reason; the server stays generic and the shop says it its
    /// own way. `nil`: MicroHTTP's own sentence is fine for a shopper.
    static func shopperWording(for reason: HTTPError.Reason) -> String? {
        switch reason {
        case .malformedAddress: "This address has a mistake in it. Check it, or go back and try the link or button again."
        case .malformedForm: "This form could not be read. Go back and try again."
        case .formNotUTF8: "This form contains characters that could not be read. Go back and try again."
        case .repeatedLength, .unknownTransferCoding, .missingHost, .repeatedHost, .malformedField, .malformedHost: "This request could not be read. Go back and try again."
        case .targetTooLong, .headerFieldsTooLarge,
             .tooManyFormFields, .bodyTooLarge, .shuttingDown, .tooManyStreams, .notFound, .methodNotAllowed, .internalError: nil
        }
    }

    private static func title(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "That didn’t work"
        case 403: "Not allowed"
        case 404: "Page not found"
        case 405: "Not possible here"
        case 413: "Too much data"
        case 414: "Address too long"
        case 415: "Not a form this page takes"
        case 429: "Too many tries for now"
        case 431: "Request too large"
        case 501: "Not supported"
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
    static let mustacheFields: MustacheFields<ErrorView> = [
        "title": .text(\.title),
        "message": .text(\.message),
        "backHref": .text(\.backHref),
        "backLabel": .text(\.backLabel),
    ]
}
