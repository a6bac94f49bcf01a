/// A step around every routed request: it may change the request, answer by itself, or
/// change the response that the rest of the chain returns.
///
/// Middleware runs in the order it was added, outermost first, for matched routes and for
/// 404/405 answers alike.
/// ```swift
/// struct SecurityHeaders: Middleware {
///     func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
///         var response = try next(request)
///         response.headers["X-Content-Type-Options"] = "nosniff"
///         return response
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles `request`, calling `next` to continue the chain.
    /// - Throws: Whatever the chain throws, or its own ``HTTPError``.
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response

    /// Told once the server is done with a request the chain answered (see
    /// ``HTTPResponder/completed(_:_:)``); the default does nothing.
    func completed(_ request: Request, _ delivery: Delivery)
}

extension Middleware {
    public func completed(_ request: Request, _ delivery: Delivery) {}
}
