import MicroHTTP
import Testing

@Suite struct RouterTests {
    func router() -> Router {
        var router = Router()
        router.get("/") { _ in .text("root") }
        router.get("/cart") { _ in .text("cart") }
        router.post("/cart/items/:id/quantity") { request in .text("qty \(request.routeParameters["id"]!)") }
        router.get("/static/*path") { request in .text("file \(request.routeParameters["path"]!)") }
        return router
    }

    func text(_ response: Response) -> String {
        if case .bytes(let bytes) = response.body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }

    @Test func matchesLiteralsParametersAndRest() {
        let router = router()
        #expect(text(router.respond(to: Request(method: .get, path: "/"))) == "root")
        #expect(text(router.respond(to: Request(method: .get, path: "/cart"))) == "cart")
        #expect(text(router.respond(to: Request(method: .post, path: "/cart/items/42/quantity"))) == "qty 42")
        #expect(text(router.respond(to: Request(method: .get, path: "/static/css/app.css"))) == "file css/app.css")
    }

    @Test(arguments: ["/cart/", "/cart/items//quantity", "/cart/items/1/quantity/x", "/static/", "/nope", ""])
    func unmatchedPathsAre404(path: String) {
        #expect(router().respond(to: Request(method: .get, path: path)).status == .notFound)
    }

    @Test func wrongMethodIs405ListingAllowedMethods() {
        let response = router().respond(to: Request(method: .post, path: "/cart"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(router().respond(to: Request(method: .get, path: "/cart/items/1/quantity")).headers["allow"] == "POST")
    }

    @Test func middlewareWrapsEveryAnswer() {
        struct Stamp: Middleware {
            func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
                var response = try next(request)
                response.headers["X-Stamp"] = "yes"
                return response
            }
        }
        var router = router()
        router.add(middleware: Stamp())
        #expect(router.respond(to: Request(method: .get, path: "/cart")).headers["X-Stamp"] == "yes")
        #expect(router.respond(to: Request(method: .get, path: "/missing")).headers["X-Stamp"] == "yes")
    }
}

extension RouterTests {
    @Test(arguments: ["x/cart", "cart", "*", "http://example.com/cart"])
    func targetsThatAreNotPathsAre404(path: String) {
        #expect(router().respond(to: Request(method: .get, path: path)).status == .notFound)
    }

    @Test func aSlashBeforeACombiningMarkStillSeparatesSegments() {
        let response = router().respond(to: Request(method: .post, path: "/cart/items/3/\u{301}x/quantity"))
        #expect(response.status == .notFound)
    }
}
