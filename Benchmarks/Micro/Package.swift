// swift-tools-version:6.0
import PackageDescription

// Micro-benchmarks of QuickCart's template engine and SQLite layer, kept out of the main
// package (whose manifest this harness does not own). It uses the parent package's library
// products `Mustache` and `SQLite`, which the parent's Package.swift must export:
//     .library(name: "Mustache", targets: ["Mustache"]),
//     .library(name: "SQLite", targets: ["SQLite"]),
// `make bench` builds and runs it; alone: `swift run -c release --package-path Benchmarks/Micro`.
let package = Package(
    name: "QuickCartMicro",
    dependencies: [
        // Named, so the dependency is "QuickCart" whatever the clone's folder is called.
        .package(name: "QuickCart", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "quickcart-micro",
            dependencies: [
                .product(name: "Mustache", package: "QuickCart"),
                .product(name: "SQLite", package: "QuickCart"),
            ],
            path: "Sources/QuickCartMicro"
        ),
    ],
    swiftLanguageModes: [.v6]
)
