/// Picks a handler by method and path pattern, and turns thrown errors into error pages.
///
/// Patterns are literal segments, `:name` parameters (one segment) and a trailing `*name`
/// (the rest of the path). A path that matches a pattern but not its method gets 405 with
/// `Allow` listing the methods that pattern has; no match at all gets 404. `GET` routes answer
/// `HEAD` too. Build the router once, before the server starts.
/// ```swift
/// var router = Router()
/// router.get("/cart") { request in .html(page) }
/// router.post("/cart/items/:id/quantity") { request in
///     let id = request.routeParameters["id"]!
///     …
/// }
/// ```
public struct Router: HTTPResponder {
    /// A route's handler.
    public typealias Handler = @Sendable (Request) throws -> Response
    /// Renders an error page for a request.
    public typealias ErrorRenderer = @Sendable (HTTPError, Request) -> Response
    /// Receives errors that are not ``HTTPError`` (they become a 500) for logging.
    public typealias ErrorLogger = @Sendable (any Error, Request) -> Void

    private struct Route: Sendable {
        let pattern: String
        let segments: [PatternSegment]
        var handlers: [HTTPMethod: Handler]
    }

    private enum PatternSegment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    private var exactRoutes: [String: Int] = [:]
    /// The routes with a `:parameter` or `*rest`: the only ones worth matching segment by
    /// segment, since `exactRoutes` finds the others.
    private var patternRoutes: [Int] = []
    private var routes: [Route] = []
    private var middleware: [any Middleware] = []
    private let renderError: ErrorRenderer
    private let logError: ErrorLogger

    /// Creates an empty router.
    /// - Parameters:
    ///   - renderError: Builds the page for 404, 405, thrown ``HTTPError``s and the 500 of any
    ///     other error. The default is ``ErrorPage/plain(_:)``.
    ///   - logError: Told about every error that becomes a 500.
    public init(
        renderError: @escaping ErrorRenderer = { error, _ in ErrorPage.plain(error) },
        logError: @escaping ErrorLogger = { _, _ in }
    ) {
        self.renderError = renderError
        self.logError = logError
    }

    // MARK: - Building

    /// Adds `handler` for `method` on `pattern`. Adding the same method and pattern twice is a
    /// programmer error.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping Handler) {
        let segments = Self.parse(pattern: pattern)
        if let index = routes.firstIndex(where: { $0.segments == segments }) {
            precondition(routes[index].handlers[method] == nil, "route \(method) \(pattern) added twice")
            routes[index].handlers[method] = handler
            return
        }
        routes.append(Route(pattern: pattern, segments: segments, handlers: [method: handler]))
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            exactRoutes[pattern] = routes.count - 1
        } else {
            patternRoutes.append(routes.count - 1)
        }
    }

    /// Adds a `GET` (and `HEAD`) route.
    public mutating func get(_ pattern: String, handler: @escaping Handler) {
        on(.get, pattern, handler: handler)
    }

    /// Adds a `POST` route.
    public mutating func post(_ pattern: String, handler: @escaping Handler) {
        on(.post, pattern, handler: handler)
    }

    /// Appends `middleware` to the chain around every request. Applies to every request,
    /// whichever route it matches.
    public mutating func add(middleware: some Middleware) {
        self.middleware.append(middleware)
    }

    // MARK: - Responding

    /// Runs the middleware chain, then the matching route's handler (or a 404 or 405 page).
    public func respond(to request: Request) -> Response {
        run(request, fromMiddleware: 0, endingWith: dispatch)
    }

    /// Answers a request the server rejected before routing; the middleware still wraps the
    /// error page (so it gets the same headers and logging as every other answer).
    public func respond(to error: HTTPError, for request: Request) -> Response {
        run(request, fromMiddleware: 0) { _ in throw error }
    }

    /// Tells every middleware, in order, how the answer to `request` ended.
    public func completed(_ request: Request, _ delivery: Delivery) {
        for step in middleware { step.completed(request, delivery) }
    }

    private func respond(toThrown error: any Error, for request: Request) -> Response {
        if let error = error as? HTTPError {
            return renderError(error, request)
        }
        logError(error, request)
        return renderError(HTTPError(.internalServerError, "Something went wrong on our side. Please try again.", reason: .internalError), request)
    }

    /// Runs the chain from middleware `index` inward, ending with `handler`. Errors become
    /// error pages at the layer that threw them, so every outer middleware sees a response
    /// (and can add headers to it).
    private func run(_ request: Request, fromMiddleware index: Int, endingWith handler: (Request) throws -> Response) -> Response {
        do {
            guard index < middleware.count else {
                return try handler(request)
            }
            return try middleware[index].handle(request) { next in
                run(next, fromMiddleware: index + 1, endingWith: handler)
            }
        } catch {
            return respond(toThrown: error, for: request)
        }
    }

    private func dispatch(_ request: Request) throws -> Response {
        guard let (slot, parameters) = match(request.path) else {
            throw HTTPError(.notFound, "There is no page at this address.", reason: .notFound)
        }
        let route = routes[slot]
        var response: Response
        let method = request.method == .head ? HTTPMethod.get : request.method
        if let handler = route.handlers[method] {
            var routed = request
            routed.routeParameters = parameters
            do {
                response = try handler(routed)
            } catch {
                response = respond(toThrown: error, for: routed)
            }
        } else {
            response = renderError(HTTPError(
                .methodNotAllowed,
                "This address does not accept \(request.method.rawValue) requests.",
                reason: .methodNotAllowed,
                headers: ["Allow": Self.allowHeader(for: route)]
            ), request)
        }
        response.routeSlot = slot
        return response
    }

    /// Every route's pattern, as added (`/cart/items/:id/quantity`), indexed by
    /// ``Response/routeSlot``: what a request is counted under, never its raw path.
    public var routePatterns: [String] { routes.map(\.pattern) }

    private static func allowHeader(for route: Route) -> String {
        var methods = Set(route.handlers.keys.map(\.rawValue))
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted().joined(separator: ", ")
    }

    // MARK: - Matching

    private func match(_ path: String) -> (Int, [String: String])? {
        if let index = exactRoutes[path] {
            return (index, [:])
        }
        // Only origin-form targets ("/…") are paths; split on the byte, since a "/" followed by
        // a combining mark is one Character but still two path segments.
        guard path.utf8.first == UInt8(ascii: "/") else { return nil }
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
            .map { Substring($0) }
        for index in patternRoutes {
            if let parameters = Self.match(segments, of: path, against: routes[index].segments) {
                return (index, parameters)
            }
        }
        return nil
    }

    private static func match(_ segments: [Substring], of path: String, against pattern: [PatternSegment]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, part) in pattern.enumerated() {
            switch part {
            case .rest(let name):
                // Everything from this segment on, as it stands in the path.
                guard index < segments.count else { return nil }
                let rest = path[segments[index].startIndex...]
                guard !rest.isEmpty else { return nil }
                parameters[name] = String(rest)
                return parameters
            case .literal(let literal):
                guard index < segments.count, segments[index] == literal else { return nil }
            case .parameter(let name):
                guard index < segments.count, !segments[index].isEmpty else { return nil }
                parameters[name] = String(segments[index])
            }
        }
        return segments.count == pattern.count ? parameters : nil
    }

    private static func parse(pattern: String) -> [PatternSegment] {
        precondition(pattern.hasPrefix("/"), "route patterns start with /")
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return parts.enumerated().map { index, part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") {
                precondition(index == parts.count - 1, "a *rest segment must come last in \(pattern)")
                return .rest(String(part.dropFirst()))
            }
            return .literal(String(part))
        }
    }
}
