import MicroHTTP

/// Headers that tell browsers to refuse what this site never does: inline scripts, framing,
/// content sniffing, leaking full URLs to other sites, sensors.
struct SecurityHeaders: Middleware {
    let strictTransportSecurity: Bool

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        var response = try next(request)
        response.headers["Content-Security-Policy"] = Self.contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        if strictTransportSecurity {
            response.headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains"
        }
        return response
    }
}
