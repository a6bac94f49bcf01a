// swift-tools-version:6.0
import PackageDescription

// Micro-benchmarks of QuickCart's template engine, its typed cart page and its SQLite layer,
// kept out of the main package so that `swift build` there never builds them. It uses the
// parent package's library products `Mustache`, `SQLite` and `QuickCart` (the cart page through
// the shop's own views, `@_spi(Benchmarks) import QuickCart`), which the parent exports.
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
                .product(name: "QuickCart", package: "QuickCart"),
            ],
            path: "Sources/QuickCartMicro"
        ),
    ],
    swiftLanguageModes: [.v6]
)
