import MicroHTTP

/// The OpenAPI 3.1 document of `/api/v1`, written by hand in `Public/api/openapi.json` and
/// loaded at start with the other static files (gzipped, with its `ETag`), served at
/// `/api/v1/openapi.json`. `Tests/Browser/test_api_document.py` keeps it true: every route and
/// status the server answers is checked against it.
struct APIDocument: Sendable {
    /// The file's path among the static files.
    static let path = "api/openapi.json"

    let staticFiles: StaticFiles

    func response(for request: Request) throws -> Response {
        try staticFiles.response(for: request, path: Self.path)
    }
}
