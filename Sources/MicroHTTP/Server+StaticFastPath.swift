import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

extension Server {
    // MARK: - Static fast path

    /// The file a request is for, when the server answers it itself: a `GET` or `HEAD` under
    /// the static prefix for a served file, with no body and an ASCII query (anything that
    /// could need a refusal goes the usual way, through the responder).
    func staticFile(for connection: OpaquePointer, path: String, method: UnsafePointer<CChar>) -> StaticFiles.File? {
        guard let staticFiles, !isStopping.load(ordering: .relaxed),
              strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0,
              MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length") == nil,
              MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Transfer-Encoding") == nil,
              path.hasPrefix(staticPrefix),
              let file = staticFiles.file(at: path.dropFirst(staticPrefix.count)) else { return nil }
        var asciiQuery = true
        withUnsafeMutablePointer(to: &asciiQuery) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.GET_ARGUMENT_KIND, asciiChecker, pointer)
        }
        return asciiQuery ? file : nil
    }

    /// The prepared answer for `file`, chosen by the request's `Accept-Encoding` (read only for
    /// files that have a compressed copy) and its `v` query parameter.
    func answer(for file: StaticFiles.File, on connection: OpaquePointer, ifNoneMatch tags: String?) -> Response {
        let acceptsGzip = file.gzip != nil
            && MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Accept-Encoding").map(AcceptEncoding.acceptsGzip(cString:)) ?? false
        let versioned = MHD_lookup_connection_value(connection, MHD_ValueKind.GET_ARGUMENT_KIND, "v").map { requested in
            file.version.withCString { strcmp($0, requested) == 0 }
        } ?? false
        return file.answer(ifNoneMatch: tags, acceptsGzip: acceptsGzip, versioned: versioned)
    }
}
