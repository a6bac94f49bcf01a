import HTTPTesting
import MicroHTTP

/// A real server on a free loopback port for the duration of a test.
final class LiveServer {
    let server: Server

    init(_ router: Router, serving files: StaticFiles? = nil, configure: (inout Server.Configuration) -> Void = { _ in }) throws {
        var configuration = Server.Configuration(host: "127.0.0.1", port: 0, threadCount: 2)
        configure(&configuration)
        server = Server(configuration: configuration, responder: router, serving: files, at: "/static/")
        try server.start()
    }

    deinit {
        server.stop()
    }

    var port: Int { server.port }

    func client(timeout: Double = 10) throws -> TestHTTPClient {
        try TestHTTPClient(port: port, timeout: timeout)
    }
}
