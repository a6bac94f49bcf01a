// swift-tools-version:6.0
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "QuickCart",
    products: [
        .executable(name: "quickcart", targets: ["quickcart"]),
        // The generic layers, for Benchmarks/Micro (and anyone who wants them alone).
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "SQLite", targets: ["SQLite"]),
        // The shop, for Benchmarks/Micro's typed cart page (its `Benchmarks` SPI) and the executable.
        .library(name: "QuickCart", targets: ["QuickCart"]),
        .library(name: "Postgres", targets: ["Postgres"]),
        // The Swift client of the JSON API (`/api/v1`), for native apps.
        .library(name: "QuickCartClient", targets: ["QuickCartClient"]),
    ],
    targets: [
        // C libraries from the system, each behind a module map and one shim header.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // OpenSSL's libcrypto: SHA-256, HMAC, random bytes and constant-time comparison for
        // sessions. Only QuickCart's Core/Sessions/Crypto.swift imports it.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // libqrencode: the QR code of a join link, drawn as SVG. Only QuickCart's
        // Core/Sessions/QRCode.swift imports it.
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        // GnuTLS, which libmicrohttpd serves HTTPS with: certificates read (and reread on
        // SIGHUP) for its handshakes. Only MicroHTTP imports it.
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]
        ),
        // libvips, opened at run time by the commands that make thumbnails (see its
        // shim.h): no link flags, so the server never loads it.
        .systemLibrary(name: "CVips"),

        // Generic layers: they know nothing of the shop.
        // zlib precompresses static files at start.
        .target(name: "MicroHTTP", dependencies: ["CMicroHTTPD", "CZlib", "CGnuTLS"], swiftSettings: strictSwift),
        // What SQLite's and PostgreSQL's rows share: the row's reads, the value's kinds, the
        // standard library's conversions, column names, the decoding error.
        .target(name: "RowDecoding", swiftSettings: strictSwift),
        // What SQLite's and PostgreSQL's pools share: the idle connections, the counted waits.
        .target(name: "ConnectionPooling", swiftSettings: strictSwift),
        .target(name: "SQLite", dependencies: ["CSQLite", "RowDecoding", "ConnectionPooling"], swiftSettings: strictSwift),
        .target(name: "Postgres", dependencies: ["CPostgres", "RowDecoding", "ConnectionPooling"], swiftSettings: strictSwift),
        .target(name: "Mustache", swiftSettings: strictSwift),
        // Image thumbnails for catalog imports (libvips); the server never decodes images.
        .target(name: "Vips", dependencies: ["CVips"], swiftSettings: strictSwift),

        // The shop, and the executable that serves it.
        .target(
            name: "QuickCart",
            dependencies: ["MicroHTTP", "SQLite", "Postgres", "Mustache", "CCrypto", "CQREncode", "Vips"],
            swiftSettings: strictSwift
        ),
        .executableTarget(name: "quickcart", dependencies: ["QuickCart"], swiftSettings: strictSwift),
        // The Swift client of the API: Foundation's URLSession, and nothing of the server.
        .target(name: "QuickCartClient", swiftSettings: strictSwift),

        // A raw-socket HTTP and event-stream client for tests against real servers.
        .target(name: "HTTPTesting", path: "Tests/HTTPTesting", swiftSettings: strictSwift),
        // What every test target shares: temporary directories, a test failure, a recorder.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSwift),
        // A throwaway PostgreSQL server (Debian's binaries) in a temp dir, for tests.
        .target(name: "PostgresTesting", dependencies: ["Postgres", "CPostgres", "TestSupport"], path: "Tests/PostgresTesting", swiftSettings: strictSwift),

        // CZlib: the static-file tests inflate what the server gzipped; CGnuTLS: the TLS tests
        // call GnuTLS's certificate callback as a handshake does.
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "HTTPTesting", "CZlib", "CGnuTLS"], swiftSettings: strictSwift),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresTesting", "TestSupport"], swiftSettings: strictSwift),
        // Spec/ is the official Mustache spec, read by the tests from the source tree.
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"], exclude: ["Spec"], swiftSettings: strictSwift),
        .testTarget(
            name: "QuickCartTests",
            dependencies: ["QuickCart", "MicroHTTP", "SQLite", "Postgres", "Mustache", "Vips", "HTTPTesting", "PostgresTesting", "TestSupport"],
            swiftSettings: strictSwift
        ),
        // The client against the real shop (in process, on a free port), on both backends.
        .testTarget(
            name: "QuickCartClientTests",
            dependencies: ["QuickCartClient", "QuickCart", "HTTPTesting", "PostgresTesting"],
            swiftSettings: strictSwift
        ),
    ],
    swiftLanguageModes: [.v6]
)
