import MicroHTTP

/// Headers that tell browsers to refuse what this site never does: inline scripts, framing,
/// content sniffing, leaking full URLs to other sites, sensors.
struct SecurityHeaders: Middleware {
    /// The fields, in the order they are sent.
    let fields: HTTPHeaders

    init(strictTransportSecurity: Bool) {
        var fields: HTTPHeaders = [
            "Content-Security-Policy": Self.contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "same-origin",
            "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
            "Cross-Origin-Opener-Policy": "same-origin",
        ]
        if strictTransportSecurity {
            fields.add("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        }
        self.fields = fields
    }

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        var response = try next(request)
        response.headers.set(fields)
        return response
    }
}
