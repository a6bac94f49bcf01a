import MicroHTTP

/// The API's successful answers: JSON, never cached, and a cart's with its `ETag`.
enum APIAnswer {
    static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        var response = Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(bytes))
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `body` writes one JSON value.
    static func json(status: HTTPStatus = .ok, capacity: Int = 1024, _ body: (inout JSONWriter) -> Void) -> Response {
        var json = JSONWriter(capacity: capacity)
        body(&json)
        return self.json(json.bytes, status: status)
    }

    /// The cart at `version`, tagged with it.
    static func cart(_ cart: Cart, version: Int64) -> Response {
        var response = json(APIModels.cartBytes(cart, version: version))
        response.headers["ETag"] = APIRequest.etag(of: version)
        return response
    }
}
