// Reproduces the libmicrohttpd abort found by `make test-tsan`, without any sanitizer: a Server
// is stopped while clients keep connecting. Not part of any test run.
//
//   swiftc -O -parse-as-library -swift-version 6 -I Sources/CMicroHTTPD -module-name StopUnderLoad \
//     Tests/Sanitizers/stop-under-load.swift Sources/MicroHTTP/*.swift -o /tmp/stop-under-load
//   SWIFT_BACKTRACE=enable=no /tmp/stop-under-load 1000
//
// With MHD_USE_EPOLL, the mode Server.swift used before it switched to MHD_USE_POLL for this very
// reason, libmicrohttpd 0.9.75 usually aborts within a few hundred rounds:
//   Fatal error in GNU libmicrohttpd daemon.c:5531: Failed to remove listen FD from epoll set.
// MHD_quiesce_daemon (called by Server.stop) sets a worker's was_quiesced and then deletes the
// listening socket from that worker's epoll set. If the worker is awake, it can delete the socket
// itself first (MHD_epoll, daemon.c:4931). The quiescing thread's epoll_ctl then fails with ENOENT,
// and that loop does not tolerate ENOENT: MHD_PANIC, abort.
// With MHD_USE_POLL, quiesce signals the workers through their ITC instead, and 3 x 1000 rounds
// passed.

import Foundation
import Synchronization

@main
enum StopUnderLoad {
    static func main() throws {
        let rounds = Int(CommandLine.arguments.dropFirst().first ?? "200") ?? 200
        var router = Router()
        router.get("/") { _ in .text("ok") }
        for round in 0..<rounds {
            let server = Server(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 4), responder: router)
            try server.start()
            let port = server.port
            let running = Atomic<Bool>(true)
            let clients = (0..<3).map { _ in
                Thread { while running.load(ordering: .relaxed) { hit(port) } }
            }
            clients.forEach { $0.start() }
            usleep(UInt32.random(in: 1_000...20_000))
            server.stop()
            running.store(false, ordering: .relaxed)
            usleep(30_000)
            if round % 100 == 0 { print("round \(round)"); fflush(nil) }
        }
        print("no abort in \(rounds) rounds")
    }

    /// One request on a new connection, closed after the answer.
    static func hit(_ port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 512)
        _ = recv(fd, &buffer, buffer.count, 0)
    }
}
