/// Anything that turns a request into a response: the server calls one for every request.
///
/// ``Router`` is the usual responder. `respond(to:)` runs on one of the server's threads and
/// must not block on other requests.
public protocol HTTPResponder: Sendable {
    /// Answers `request`. Never throws: errors are already turned into error pages.
    func respond(to request: Request) -> Response

    /// Answers a request the server rejected before it reached `respond(to:)` (malformed
    /// escapes, a body over the limit). `request` holds what was read of it.
    func respond(to error: HTTPError, for request: Request) -> Response

    /// Told once the server is done with a request this responder answered: whether the
    /// answer went out, with its status and size. Called on the connection's thread, so it
    /// must be quick; the default does nothing.
    func completed(_ request: Request, _ delivery: Delivery)

    /// Whether requests carry their raw ``Request/target``, which costs a copy of it per
    /// request; the default is `false`.
    var readsRawTargets: Bool { get }
}

extension HTTPResponder {
    /// A minimal, self-contained error page.
    public func respond(to error: HTTPError, for request: Request) -> Response {
        ErrorPage.plain(error)
    }

    public func completed(_ request: Request, _ delivery: Delivery) {}

    public var readsRawTargets: Bool { false }
}

/// The built-in error page: used when the application supplies none.
public enum ErrorPage {
    /// A small HTML page stating the status and message, with the error's headers.
    public static func plain(_ error: HTTPError) -> Response {
        let title = HTMLText.escape(error.status.description)
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title></head>
            <body><h1>\(title)</h1><p>\(HTMLText.escape(error.message))</p></body></html>

            """
        var response = Response.html(html, status: error.status)
        for field in error.headers { response.headers[field.name] = field.value }
        return response
    }
}

/// HTML escaping for the few pages this module writes itself.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
