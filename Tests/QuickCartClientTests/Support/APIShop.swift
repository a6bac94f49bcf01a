import Foundation
import PostgresTesting
import QuickCart
import Testing

/// Where a test shop keeps its data: a SQLite file in a folder of its own, or a database of
/// its own on the PostgreSQL server the test process starts.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// The real QuickCart app on a loopback port, on a fresh database of `backend`, for the
/// client's tests. ``restart()`` stops it and serves the same database on the same port again.
///
/// This file is the only one of the client's tests that imports the server's module: its
/// model names (`Cart`, `Money`, …) are the client's too.
final class APIShop {
    let backend: Backend
    private(set) var port = 0
    private let database: String
    private let folder: URL?
    private var app: QuickCartApp?
    /// `--max-streams-per-ip`, when not the default.
    private var streamsPerAddress: Int?

    /// A shop on a fresh database of `backend`; `streamsPerAddress` limits the event streams one
    /// address may hold.
    init(_ backend: Backend, streamsPerAddress: Int? = nil) throws {
        self.backend = backend
        self.streamsPerAddress = streamsPerAddress
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("QuickCartClientTests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.folder = folder
            database = folder.path + "/shop.sqlite"
        case .postgres:
            folder = nil
            database = try TestPostgresServer.shared().makeDatabase(prefix: "client")
        }
        try start()
    }

    /// Another instance serving `shop`'s PostgreSQL database, on a port of its own, as a
    /// cluster's instances do.
    init(anotherInstanceOf shop: APIShop) throws {
        precondition(shop.backend == .postgres, "instances share a PostgreSQL database")
        backend = .postgres
        folder = nil
        database = shop.database
        try start()
    }

    deinit {
        stop()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// The shop's address, for the client.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Serves the database, on the port it had (a free one the first time).
    func start() throws {
        var configuration = Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.resourcesPath = Self.repositoryRoot
        configuration.databasePath = database
        configuration.mediaPath = folder?.path ?? FileManager.default.temporaryDirectory.path
        configuration.threads = 2
        configuration.accessLog = false
        if let streamsPerAddress { configuration.eventStreamsPerAddress = streamsPerAddress }
        let app = try QuickCartApp(configuration: configuration)
        try app.start()
        self.app = app
        port = app.port
    }

    /// Event streams the serving shop refused with 503 for a limit since it started.
    var refusedEventStreamCount: Int { app?.refusedEventStreamCount ?? 0 }

    /// Stops serving: open streams end, as they do when a shop restarts.
    func stop() {
        app?.stop()
        app = nil
    }

    /// Stops and serves the same database on the same port again.
    func restart() throws {
        stop()
        try start()
    }

    /// Runs an operator's command (`orders mark 1 paid`) on the shop's database, in this
    /// process as the executable would, and returns its exit status.
    func runCommand(_ arguments: [String]) -> Int32 {
        let quiet = OperatorCommand.Output(write: { _ in }, report: { _ in })
        return OperatorCommand.run(arguments: arguments + ["--db", database, "--resources", Self.repositoryRoot], environment: [:], output: quiet)
    }

    /// The repository's root, which holds `Views/` and `Public/`.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path
}
