// Fuzz target: MicroHTTP's Router, matching paths against `literal`, `:parameter` and `*rest`
// patterns (the shop's own routes plus a few more), through its public API.
//
// Built by Fuzz/run together with Sources/MicroHTTP/*.swift and the other MicroHTTP targets into
// one executable (Fuzz/Support/MicroHTTPTargets.swift). The first input byte picks the
// method, the rest is the path (decoded as UTF-8, as the server hands it over). Checked for every
// path that starts with `/`:
// - the answer is the one the documented rules give, restated plainly below: the first route
//   (in the order added) whose pattern matches; 404 if none; 405 with the right `Allow` if that
//   route lacks the method (`HEAD` counting as `GET`);
// - a matched route's parameters, put back into its pattern, give the path again, and a
//   `:parameter` is never empty;
// - the middleware sees every answer, errors included.
// - a path that does not start with `/` (the server hands over `GET x/cart HTTP/1.1` as it is)
//   matches no route: 404.

private let getRoutes = [
    "/", "/search", "/cart", "/profile", "/events", "/static/*path", "/healthz",
    "/a/:x/b/:y", "/a/:x/c", "/files/:kind/*rest", "/throw/:code",
]
private let postRoutes = [
    "/cart/items", "/cart/items/:id/quantity", "/cart/items/:id/remove", "/cart/checkout",
    "/profile/name", "/profile/theme", "/profile/tabs", "/profile/tabs/reset",
    "/profile/notifications", "/preferences/layout", "/a/:x/b/:y", "/files/:kind/*rest",
]
private let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .options, HTTPMethod(rawValue: "get"), HTTPMethod(rawValue: "")]

private struct Stamp: Middleware {
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        var response = try next(request)
        response.headers.add("X-Stamp", "1")
        return response
    }
}

private struct Failure: Error {}

private let router: Router = {
    var router = Router()
    router.add(middleware: Stamp())
    for (method, patterns) in [(HTTPMethod.get, getRoutes), (.post, postRoutes)] {
        for pattern in patterns {
            router.on(method, pattern) { request in
                if pattern == "/throw/:code" {
                    if request.routeParameters["code"] == "500" { throw Failure() }
                    throw HTTPError(.badRequest, "thrown")
                }
                return Response(headers: ["X-Route": pattern], body: .bytes(encode(request.routeParameters)))
            }
        }
    }
    return router
}()

public func fuzzRouter(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let method = methods[Int(start[0]) % methods.count]
    let path = String(decoding: UnsafeBufferPointer(start: start + 1, count: count - 1), as: UTF8.self)
    let response = router.respond(to: Request(method: method, path: path))
    check(response.headers["X-Stamp"] == "1", "the middleware did not see the answer")
    guard path.utf8.first == UInt8(ascii: "/") else {
        check(response.status == .notFound, "\(path): not a path, expected 404, got \(response.status)")
        return 0
    }

    let effective = method == .head ? HTTPMethod.get : method
    let all = getRoutes.map { ($0, HTTPMethod.get) } + postRoutes.map { ($0, HTTPMethod.post) }
    // The route is the first pattern added that matches; its methods are all of that pattern's.
    var firstPattern: String?
    var firstParameters: [String: String] = [:]
    for (pattern, _) in all {
        if let parameters = match(path, pattern) {
            firstPattern = pattern
            firstParameters = parameters
            break
        }
    }
    guard let pattern = firstPattern else {
        check(response.status == .notFound, "\(path): expected 404, got \(response.status)")
        return 0
    }
    let allowed = Set(all.filter { $0.0 == pattern }.map(\.1))
    guard allowed.contains(effective) else {
        check(response.status == .methodNotAllowed, "\(method) \(path): expected 405, got \(response.status)")
        var names = Set(allowed.map(\.rawValue))
        if names.contains("GET") { names.insert("HEAD") }
        check(response.headers["Allow"] == names.sorted().joined(separator: ", "), "wrong Allow for \(path)")
        return 0
    }
    if pattern == "/throw/:code" {
        let expected = firstParameters["code"] == "500" ? 500 : 400
        check(response.status.code == expected, "\(path): expected \(expected), got \(response.status)")
        return 0
    }
    check(response.status == .ok, "\(method) \(path): expected 200 from \(pattern), got \(response.status)")
    check(response.headers["X-Route"] == pattern, "\(path) went to \(response.headers["X-Route"] ?? "-"), not \(pattern)")
    guard case .bytes(let body) = response.body else { fail("no body") }
    check(body == encode(firstParameters), "\(path): parameters differ from \(firstParameters)")
    check(fill(pattern, with: firstParameters) == path, "\(path) is not \(pattern) filled with \(firstParameters)")
    return 0
}

/// The documented rule: segments between `/` bytes (a `/` before a combining mark still
/// separates), a literal equal, a `:name` one non-empty segment, a final `*name` the non-empty rest.
private func match(_ path: String, _ pattern: String) -> [String: String]? {
    let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    var parameters: [String: String] = [:]
    for (index, part) in parts.enumerated() {
        if part.hasPrefix("*") {
            let rest = segments.dropFirst(index).joined(separator: "/")
            if rest.isEmpty { return nil }
            parameters[String(part.dropFirst())] = rest
            return parameters
        }
        guard index < segments.count else { return nil }
        if part.hasPrefix(":") {
            if segments[index].isEmpty { return nil }
            parameters[String(part.dropFirst())] = segments[index]
        } else if segments[index] != part {
            return nil
        }
    }
    return segments.count == parts.count ? parameters : nil
}

private func fill(_ pattern: String, with parameters: [String: String]) -> String {
    let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
        part.hasPrefix(":") || part.hasPrefix("*") ? parameters[String(part.dropFirst())]! : String(part)
    }
    return "/" + parts.joined(separator: "/")
}

private func encode(_ parameters: [String: String]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
        bytes += Array("\(name.utf8.count):\(name)\(value.utf8.count):\(value);".utf8)
    }
    return bytes
}
