// Micro-benchmarks for QuickCart's template engine and SQLite layer, so that a regression in
// `make bench`'s page figures can be traced to the layer it comes from. The typed cart page is
// the shop's own (`CartPageSample`, through QuickCart's `Benchmarks` SPI), not a copy of its views.
//
//   quickcart-micro [--views DIR] [--runs N] [--seconds S] [--scratch DIR]
//
// Each benchmark runs for S seconds of CPU time, N times (after one untimed run); times are the
// thread's CPU time, so other processes on the CPU do not inflate them. One line per benchmark:
//   MICRO {"name": …, "ns_per_op": …, "ops_per_s": …, "mb_per_s": …, "summary": …}
// with the median of the runs. `make bench` runs it pinned to the server CPU.

import Foundation
import Mustache
@_spi(Benchmarks) import QuickCart
import SQLite

// MARK: - Options

struct Options {
    var views = "Views"
    var runs = 3
    var seconds = 1.0
    var scratch = NSTemporaryDirectory()

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? arguments[index + 1] : ""
            switch arguments[index] {
            case "--views": views = value
            case "--runs": runs = max(1, Int(value) ?? runs)
            case "--seconds": seconds = max(0.05, Double(value) ?? seconds)
            case "--scratch": scratch = value
            default:
                FileHandle.standardError.write(Data("usage: quickcart-micro [--views DIR] [--runs N] [--seconds S] [--scratch DIR]\n".utf8))
                exit(2)
            }
            index += 2
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

// MARK: - Measuring

/// What keeps the optimiser from dropping the measured work.
nonisolated(unsafe) var sink = 0

struct Measurement {
    var operations: Int
    var bytes: Int
    var seconds: Double
}

/// CPU time of the calling thread, in seconds: unlike the wall clock, it does not grow when
/// other processes share the CPU, so the figures stay comparable on a busy machine.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` (one call = `batch` operations, returning bytes produced) until it has used
/// `seconds` of CPU time (or three times that of wall-clock time, whichever comes first).
func measure(seconds: Double, batch: Int = 1, _ body: () throws -> Int) rethrows -> Measurement {
    let clock = ContinuousClock()
    let wallLimit = clock.now + .nanoseconds(Int64(3 * seconds * 1e9))
    let start = threadCPUSeconds()
    var operations = 0
    var bytes = 0
    while true {
        bytes += try body()
        operations += batch
        let elapsed = threadCPUSeconds() - start
        if elapsed >= seconds || clock.now >= wallLimit {
            return Measurement(operations: operations, bytes: bytes, seconds: elapsed)
        }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ name: String, unit: String = "op", _ body: () throws -> Measurement) rethrows {
    _ = try body() // warm-up run, not counted (as long as the others: the first SQLite runs fill caches)
    var nsPerOp: [Double] = []
    var megabytesPerSecond: [Double] = []
    for _ in 0..<options.runs {
        let result = try body()
        nsPerOp.append(result.seconds * 1e9 / Double(result.operations))
        megabytesPerSecond.append(Double(result.bytes) / result.seconds / 1e6)
    }
    let ns = median(nsPerOp)
    let opsPerSecond = 1e9 / ns
    let mbps = median(megabytesPerSecond)
    var summary = "\(grouped(ns)) ns per \(unit) (\(grouped(opsPerSecond))/s)"
    if mbps > 0 { summary += ", \(grouped(mbps)) MB/s" }
    var fields: [String: Any] = ["name": name, "ns_per_op": ns, "ops_per_s": opsPerSecond, "summary": summary]
    if mbps > 0 { fields["mb_per_s"] = mbps }
    let json = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    // Straight to the file descriptor: the bench reads a pipe, and `stdout` is not concurrency-safe.
    FileHandle.standardOutput.write(Data(("MICRO " + String(decoding: json, as: UTF8.self) + "\n").utf8))
}

func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var result = ""
    for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return String(result.reversed())
}

// MARK: - Templates: the cart page with 20 rows, rendered as PageRenderer does

/// `Public/icons/` beside the `Views/` given.
let iconFolder = URL(fileURLWithPath: options.views).deletingLastPathComponent().appendingPathComponent("Public/icons").path
let iconNames = ((try? FileManager.default.contentsOfDirectory(atPath: iconFolder)) ?? [])
    .filter { $0.hasSuffix(".svg") }.sorted().map { String($0.dropLast(4)) }

func loadIcons() -> [String] {
    let icons = iconNames.compactMap { try? String(contentsOfFile: iconFolder + "/" + $0 + ".svg", encoding: .utf8) }
    return icons.isEmpty ? [#"<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 3h18v18H3z"/></svg>"#] : icons
}

func dollars(_ cents: Int) -> String {
    let whole = cents / 100
    return "$" + grouped(Double(whole)) + "." + (cents % 100 < 10 ? "0" : "") + String(cents % 100)
}

let icons = loadIcons()
let rows: [MustacheValue] = (1...20).map { id in
    let quantity = id % 10 + 1
    let price = 1_299 + id * 1_150
    return .object([
        "id": .string(String(id)),
        "name": .string("Trail product & co. “\(id)” <limited>"),
        "icon": .string(icons[id % icons.count]),
        "unitPrice": .string(dollars(price)),
        "lineTotal": .string(dollars(price * quantity)),
        "quantity": .int(quantity),
        "decrement": .int(quantity - 1),
        "increment": .int(quantity + 1),
        "canDecrease": .bool(quantity > 1),
        "canIncrease": .bool(quantity < 10),
    ])
}
let cartContent: MustacheValue = .object([
    "items": .array(rows),
    "hasItems": true,
    "count": .int(130),
    "countText": "130 items",
    "subtotal": "$2,345.67",
    "canCheckout": true,
    "csrf": "0123456789abcdef0123456789abcdef",
])
let tabs: MustacheValue = .array([("home", "Home", "/"), ("search", "Search", "/search"), ("cart", "Cart", "/cart"), ("profile", "Profile", "/profile")].enumerated().map { index, tab in
    var value: MustacheObject = [
        "id": .string(tab.0), "title": .string(tab.1), "path": .string(tab.2),
        "icon": .string(icons[index % icons.count]), "current": .bool(tab.0 == "cart"), "prominent": .bool(tab.0 == "cart"),
    ]
    if tab.0 == "cart" {
        value["badgeText"] = "130"
        value["badgeVisible"] = true
    }
    return .object(value)
})

let library: MustacheLibrary
do {
    library = try MustacheLibrary(directory: options.views)
} catch {
    FileHandle.standardError.write(Data("quickcart-micro: cannot load templates from \(options.views): \(error)\n".utf8))
    exit(1)
}
/// How the app wraps a page in its layout: as one buffer (layout-start, content, layout-end,
/// as PageRenderer does now) or, with an older Views/, content first and then `layout`.
let splitLayout = library["layout-start"] != nil && library["layout-end"] != nil
guard library["cart"] != nil, splitLayout || library["layout"] != nil else {
    FileHandle.standardError.write(Data("quickcart-micro: \(options.views) has no cart template or no layout (layout-start/-end)\n".utf8))
    exit(1)
}

let layoutValues: MustacheObject = [
    "title": "Cart", "page": "cart", "theme": "system", "layout": "bar", "notifications": "on", "itemCountText": "130 items",
    "assets": .object([
        "css": "/static/css/app.css?v=0123456789abcdef", "js": "/static/js/app.js?v=0123456789abcdef",
        "favicon": "/static/icons/favicon.svg?v=0123456789ab", "touchIcon": "/static/icons/app/maskable-192.png?v=0123456789ab",
    ]),
    "shop": .object(["name": "QuickCart", "shortName": "QuickCart", "release": "0123456789abcdef"]),
    "tabs": tabs,
    "layoutToggle": .object([
        "csrf": "0123456789abcdef0123456789abcdef", "returnTo": "/cart", "value": "sidebar",
        "label": "Show sidebar", "pressed": "false", "icon": .string(icons[0]),
    ]),
]

func renderCartPage() -> Int {
    var body: [UInt8] = []
    if splitLayout {
        let layout = MustacheValue.object(layoutValues)
        body.reserveCapacity(16 * 1024)
        _ = library.render("layout-start", with: layout, into: &body)
        _ = library.render("cart", with: cartContent, into: &body)
        _ = library.render("layout-end", with: layout, into: &body)
    } else {
        let content = library.render("cart", with: cartContent) ?? ""
        var values = layoutValues
        values["content"] = .string(content)
        body.reserveCapacity(content.utf8.count + 4096)
        _ = library.render("layout", with: MustacheValue.object(values), into: &body)
    }
    return body.count
}

// MARK: - Templates, typed: the same page through the shop's own views and renderer
// (QuickCart's `CartPageSample`: `PageRenderer` with `LayoutView` and `CartView`, compiled
// against the templates at start).

let typedCart = Cart(items: (1...20).map { id in
    let product = Product(
        id: Int64(id), slug: "trail-product-\(id)", name: "Trail product & co. “\(id)” <limited>", summary: "", category: "Trail",
        price: Money(cents: Int64(1_299 + id * 1_150)), icon: iconNames.isEmpty ? "" : iconNames[id % iconNames.count], isFeatured: false
    )
    return Cart.Item(product: product, quantity: id % 10 + 1)
})
let shopper = Session(
    clientID: String(repeating: "a", count: 64), shopperID: String(repeating: "b", count: 64), createdAt: 0, displayName: "Guest",
    isStored: true, csrfToken: "0123456789abcdef0123456789abcdef", liveKey: "", shopperLiveKey: ""
)

do {
    let sample = try CartPageSample(views: options.views, icons: iconFolder, cart: typedCart, session: shopper)
    report("mustache: cart page, 20 rows, with the layout (typed views)", unit: "render") {
        measure(seconds: options.seconds) { sample.render() }
    }
} catch {
    FileHandle.standardError.write(Data("quickcart-micro: skipping the typed cart page: \(error)\n".utf8))
}

report("mustache: cart page, 20 rows, with the layout (dynamic)\(splitLayout ? "" : ", content then layout")", unit: "render") {
    measure(seconds: options.seconds) { renderCartPage() }
}
report("mustache: cart content only, 20 rows", unit: "render") {
    measure(seconds: options.seconds) {
        var body: [UInt8] = []
        _ = library.render("cart", with: cartContent, into: &body)
        return body.count
    }
}

// MARK: - SQLite: a temporary WAL database

let path = (options.scratch as NSString).appendingPathComponent("micro-\(getpid()).sqlite")
func removeDatabase() {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
removeDatabase()
defer { removeDatabase() }

do {
    let db = try Database(path: path)
    try db.execute(sql: """
        CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price_cents INTEGER NOT NULL, icon TEXT NOT NULL);
        CREATE TABLE cart_items (session_id TEXT NOT NULL, product_id INTEGER NOT NULL, quantity INTEGER NOT NULL,
                                 added_at INTEGER NOT NULL, PRIMARY KEY (session_id, product_id));
        CREATE TABLE log (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, value INTEGER NOT NULL);
        """)
    try db.inTransaction {
        for id in 1...1_000 {
            try db.execute("INSERT INTO products (id, name, price_cents, icon) VALUES (?, ?, ?, ?)", [id, "Product \(id)", 1_000 + id, "tent"])
        }
        for product in 1...20 {
            try db.execute("INSERT INTO cart_items VALUES (?, ?, ?, ?)", ["session-a", product, 1, product])
        }
    }

    var key = 0
    try report("sqlite: prepared SELECT by primary key (Database.fetchOne)", unit: "query") {
        try measure(seconds: options.seconds, batch: 100) {
            for _ in 0..<100 {
                key = key % 1_000 + 1
                let product = try db.fetchOne("SELECT id, name, price_cents FROM products WHERE id = ?", [key]) { row in
                    (try row.int64(0), try row.string(1), try row.int(2))
                }
                sink &+= product?.2 ?? 0
            }
            return 0
        }
    }
    try report("sqlite: a cart's 20 rows (SELECT … WHERE session_id = ?, Database.fetchAll)", unit: "query") {
        try measure(seconds: options.seconds, batch: 10) {
            for _ in 0..<10 {
                let rows = try db.fetchAll("SELECT product_id, quantity FROM cart_items WHERE session_id = ? ORDER BY added_at, product_id", ["session-a"]) { row in
                    (try row.int64(0), try row.int(1))
                }
                sink &+= rows.count
            }
            return 0
        }
    }
    var quantity = 1
    try report("sqlite: UPDATE in its own transaction (BEGIN IMMEDIATE … COMMIT, WAL)", unit: "commit") {
        try measure(seconds: options.seconds) {
            quantity = quantity % 10 + 1
            try db.inTransaction {
                try db.execute("UPDATE cart_items SET quantity = ? WHERE session_id = ? AND product_id = ?", [quantity, "session-a", 1])
            }
            return 0
        }
    }
    var logged = 0
    try report("sqlite: INSERT, 100 per transaction", unit: "row") {
        try measure(seconds: options.seconds, batch: 100) {
            try db.inTransaction {
                for _ in 0..<100 {
                    logged += 1
                    try db.execute("INSERT INTO log (session_id, value) VALUES (?, ?)", ["session-a", logged])
                }
            }
            return 0
        }
    }
    db.close()

    let pool = try DatabasePool(path: path, maximumConnections: 4)
    try report("sqlite: DatabasePool.read + SELECT by primary key (a request's read)", unit: "query") {
        try measure(seconds: options.seconds, batch: 100) {
            for _ in 0..<100 {
                key = key % 1_000 + 1
                sink &+= try pool.read { db in
                    try db.fetchValue("SELECT price_cents FROM products WHERE id = ?", [key], as: Int.self) ?? 0
                }
            }
            return 0
        }
    }
    pool.close()
} catch {
    FileHandle.standardError.write(Data("quickcart-micro: SQLite benchmark failed: \(error)\n".utf8))
    exit(1)
}

if sink == 42 { FileHandle.standardError.write(Data("\n".utf8)) } // keeps `sink` observable
