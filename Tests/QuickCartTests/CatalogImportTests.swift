import Foundation
@testable import QuickCart
import Testing

/// `quickcart catalog import` and `export` over real storage: upserts by slug, deactivation,
/// dry runs, refusals that write nothing, round trips, and carts and orders when the catalog moves.
@Suite("Catalog import")
struct CatalogImportTests {
    private let now = TestSessions.start

    /// A folder for catalog files and photos, and a database of one backend.
    final class Workspace {
        let directory: TemporaryDirectory
        let location: StoreLocation
        /// The `--db` value.
        var database: String { location.database }
        var media: String { directory.path + "/media" }

        init(_ backend: StoreBackend = .sqlite) throws {
            directory = try TemporaryDirectory()
            location = try backend.makeLocation()
            try FileManager.default.createDirectory(atPath: directory.path + "/media", withIntermediateDirectories: true)
            // The shop's database exists, as once the shop has served: the operator's commands
            // open an existing one only.
            try location.open().close()
        }

        /// Writes `text` to a file named `name` and returns its path.
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.path + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Opens the database as the server would.
        func open(emptyCarts: Bool = false) throws -> any ShopStorage {
            var configuration = Configuration()
            configuration.databasePath = database
            configuration.resourcesPath = TestShop.repositoryRoot
            configuration.emptyCarts = emptyCarts
            return try Storage.open(configuration, connections: 2)
        }

        /// Opens the database and adds `slug` to a new session's (starter) cart at `time`: the
        /// storage, still open, the session and the product.
        func cart(adding slug: String, at time: Int64) throws -> (any ShopStorage, Session, Product) {
            let storage = try open()
            let session = TestSessions.new()
            let product = try storage.product(slug)
            _ = try storage.carts.add(productID: product.id, for: session, at: time)
            return (storage, session, product)
        }

        func run(_ arguments: [String]) -> OperatorRun {
            OperatorRun(arguments, database: database, media: media)
        }

        /// The stored catalog, every product, as `slug price active` lines.
        func listing() throws -> [String] {
            let storage = try open()
            defer { storage.close() }
            return try storage.catalogStore.loadCatalog().products.map { "\($0.slug) \($0.price) \($0.isActive ? "active" : "inactive")" }
        }
    }

    static func catalogVersion(in workspace: Workspace) throws -> Int64 {
        let storage = try workspace.open()
        defer { storage.close() }
        return try storage.catalogStore.loadCatalog().version
    }

    static let ownCatalog = """
        slug,name,summary,category,price,featured
        trail-running-shoes,Trail Running Shoes,"Grippy, cushioned shoes.",Running,130.00,true
        camp-chair,Camp Chair,Folds flat.,Camping,45.00,true
        """

    @Test("Photos live in --media, QUICKCART_MEDIA, or media/ beside the database file (in the working directory for a URL)")
    func mediaFolder() throws {
        func folder(_ arguments: [String], _ environment: [String: String] = [:]) throws -> String {
            try Configuration.parse(arguments: arguments, environment: environment).mediaDirectory
        }
        #expect(try folder(["--db", "/srv/shop/quickcart.sqlite"]) == "/srv/shop/media")
        #expect(try folder(["--db", "/srv/shop/quickcart.sqlite", "--media", "/srv/photos"]) == "/srv/photos")
        #expect(try folder([], ["QUICKCART_MEDIA": "/srv/photos", "QUICKCART_DB": "/srv/shop/q.sqlite"]) == "/srv/photos")
        #expect(try folder(["--db", "postgres://shop@db/quickcart"]) == FileManager.default.currentDirectoryPath + "/media")
    }

    @Test("A new database sells the demo catalog, loaded by the import: the shipped ids, in file order, the demo cart", arguments: StoreBackend.allCases)
    func newDatabase(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let storage = try workspace.open()
        defer { storage.close() }
        let current = storage.liveCatalog.current
        #expect(current.origin == .demo && current.version == 1)
        #expect(current.catalog.products.map(\.id) == Array(1...Int64(CatalogSeed.products.count)))
        #expect(current.catalog.products.map(\.slug) == CatalogSeed.products.map(\.slug))
        #expect(current.starterCart == Cart.demo(from: current.catalog) && current.starterCart.itemCount == 3)
        let reopened = try workspace.open()
        #expect(reopened.liveCatalog.current.version == 1, "opening again imports nothing")
        reopened.close()
    }

    @Test("An import upserts by slug in file order, keeps ids, and makes the products it leaves out inactive", arguments: StoreBackend.allCases)
    func upsertAndDeactivate(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let before = try workspace.open()
        let shoes = try before.product("trail-running-shoes")
        let version = before.liveCatalog.current.version
        #expect(before.liveCatalog.current.origin == .demo)
        before.close()

        let run = workspace.run(["catalog", "import", try workspace.file("own.csv", Self.ownCatalog)])
        #expect(run.status == 0, "\(run.report)")
        #expect(run.output.contains("added 1: camp-chair"), "\(run.output)")
        #expect(run.output.contains("changed 1: trail-running-shoes"), "\(run.output)")
        #expect(run.output.contains("deactivated 23: insulated-water-bottle, ultralight-tent"), "\(run.output)")

        let storage = try workspace.open()
        defer { storage.close() }
        let current = storage.liveCatalog.current
        #expect(current.origin == .own && current.version > version)
        #expect(current.catalog.products.map(\.slug) == ["trail-running-shoes", "camp-chair"], "only the file's products are for sale, in its order")
        let updated = try #require(current.catalog.product(slug: "trail-running-shoes"))
        #expect(updated.id == shoes.id && updated.price == Money(cents: 13_000) && updated.summary == "Grippy, cushioned shoes.")
        #expect(updated.icon == "shoe", "a row without an icon keeps the product's icon")
        #expect(current.catalog.product(slug: "camp-chair")?.icon == "tent", "a new product takes its category's icon")
        let bottle = try #require(current.catalog.product(slug: "insulated-water-bottle"), "left-out products are kept")
        #expect(!bottle.isActive)
        #expect(current.catalog.allProducts.count == 25)
        #expect(try storage.productSearch.searchProducts(matching: "bottle", limit: 50).isEmpty, "inactive products are not found")
        #expect(current.starterCart.isEmpty, "the demo cart goes with the demo catalog")
    }

    @Test("--dry-run prints what would change and writes nothing", arguments: StoreBackend.allCases)
    func dryRun(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let original = try workspace.listing()
        let run = workspace.run(["catalog", "import", try workspace.file("own.csv", Self.ownCatalog), "--dry-run"])
        #expect(run.status == 0, "\(run.report)")
        #expect(run.output.hasPrefix("dry run:") && run.output.contains("nothing was written"), "\(run.output)")
        #expect(run.output.contains("added 1: camp-chair") && run.output.contains("changed 1: trail-running-shoes"))
        #expect(run.output.contains("deactivated 23:"))
        #expect(try workspace.listing() == original)
        let storage = try workspace.open()
        defer { storage.close() }
        #expect(storage.liveCatalog.current.origin == .demo)
    }

    @Test("A bad file prints every problem, one per line, exits non-zero and writes nothing", arguments: StoreBackend.allCases)
    func badFileWritesNothing(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let original = try workspace.listing()
        let path = try workspace.file("bad.csv", """
            slug,name,category,price,image
            ok-one,Fine,Misc,1.00,
            Not OK,,Misc,ten,missing.png
            ok-one,Again,Misc,2.00,
            """)
        let run = workspace.run(["catalog", "import", path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.reportLines == [
            "\(path): line 3, slug: “Not OK” is not URL-safe: use lower-case letters a–z, digits and single hyphens between them",
            "\(path): line 3, name: missing",
            "\(path): line 3, price: “ten” is not a price: write dollars with up to two decimals, like 24.50, at most 1000000.00",
            "\(path): line 3, image: unknown image file “missing.png”: it is not in the media folder \(workspace.media)",
            "\(path): line 4, slug: “ok-one” is already used on line 2",
            "quickcart: 5 problems; nothing was imported",
        ])
        #expect(try workspace.listing() == original)
    }

    @Test("Usage errors exit 2: unknown commands, a missing file, a bad format", arguments: StoreBackend.allCases)
    func usageErrors(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        #expect(workspace.run(["catalog", "frobnicate"]).status == 2)
        #expect(workspace.run(["catalog", "import"]).status == 2)
        #expect(workspace.run(["catalog", "import", "a.csv", "b.csv"]).status == 2)
        #expect(workspace.run(["catalog", "export", "--dry-run"]).status == 2, "--dry-run belongs to import")
        #expect(workspace.run(["catalog", "--help"]).output.hasPrefix("Usage: quickcart catalog import"))
        #expect(workspace.run(["catalog", "export", "--format", "xml"]).status == 2)
        #expect(workspace.run(["orders", "export", "--since", "yesterday"]).status == 2)
        // Days and hours that do not exist are refused, not rolled over to the next.
        for impossible in ["2026-02-30", "2026-02-29", "2026-13-01", "2026-12-04T25:00:00Z", "2026-12-04T10:60:00Z", "2026-12-04T10:00:00+00:99", "2026-12-04T10:00:00+24:00"] {
            #expect(workspace.run(["orders", "export", "--since", impossible]).status == 2, "--since \(impossible)")
        }
        #expect(workspace.run(["orders", "export", "--since", "2028-02-29"]).status == 0, "a leap day")
        #expect(workspace.run(["orders", "export", "--since", "2026-12-04T10:00:00+05:30"]).status == 0, "an offset")
        #expect(workspace.run(["catalog", "import", workspace.directory.path + "/nothing-here.csv"]).status == 1)
    }

    @Test("Export then import changes nothing, in CSV and in JSON; the export is the same again", arguments: StoreBackend.allCases, CatalogFile.Format.allCases)
    func roundTrip(backend: StoreBackend, format: CatalogFile.Format) throws {
        let workspace = try Workspace(backend)
        #expect(workspace.run(["catalog", "import", try workspace.file("own.csv", Self.ownCatalog)]).status == 0)
        let export = workspace.run(["catalog", "export", "--format", format.rawValue])
        #expect(export.status == 0, "\(export.report)")
        let listing = try workspace.listing()
        let version = try Self.catalogVersion(in: workspace)
        let path = try workspace.file("export.\(format.rawValue)", export.output)
        let again = workspace.run(["catalog", "import", path])
        #expect(again.status == 0, "\(again.report)")
        #expect(again.output.hasSuffix("no changes\n"), "\(again.output)")
        #expect(try workspace.listing() == listing)
        #expect(try Self.catalogVersion(in: workspace) == version, "an import that changes nothing keeps the version, so no instance reloads")
        #expect(workspace.run(["catalog", "export", "--format", format.rawValue]).output == export.output)
    }

    @Test("The demo catalog exports as Catalog/demo.csv", arguments: StoreBackend.allCases)
    func demoExport(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let export = workspace.run(["catalog", "export"])
        let file = try String(contentsOfFile: TestShop.repositoryRoot + "/Catalog/demo.csv", encoding: .utf8)
        #expect(export.output == file)
    }

    @Test("A product made inactive stays in open carts as no longer available: not counted, not checked out", arguments: StoreBackend.allCases)
    func deactivatedProductInOpenCart(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let (storage, session, tent) = try workspace.cart(adding: "ultralight-tent", at: now)
        storage.close()

        // Tent left out: the cart keeps its line, out of sale.
        let catalog = Self.ownCatalog.replacing("camp-chair,Camp Chair", with: "insulated-water-bottle,Insulated Water Bottle")
        #expect(workspace.run(["catalog", "import", try workspace.file("own.csv", catalog)]).status == 0)
        let after = try workspace.open()
        defer { after.close() }
        let cart = try #require(try after.sessions.stored(session)).cart
        #expect(cart.items.map(\.product.slug) == ["trail-running-shoes", "insulated-water-bottle", "ultralight-tent"])
        #expect(cart.items.map(\.isAvailable) == [true, true, false])
        #expect(cart.itemCount == 3, "the badge counts what is for sale")
        #expect(cart.subtotal == Money(cents: 13_000 + 2 * 4_500), "the file prices the bottle at $45.00")
        let change = try after.carts.add(productID: tent.id, for: TestSessions.stored(session), at: now)
        #expect(change.itemCount == 3, "the stored count leaves the tent out too")

        let (orderID, emptied) = try after.carts.checkout(for: TestSessions.stored(session), at: now + 1)
        #expect(emptied.itemCount == 0)
        let order = try #require(try after.orders.orders(for: TestSessions.stored(session)).first { $0.id == orderID })
        #expect(order.lines.map(\.name) == ["Trail Running Shoes", "Insulated Water Bottle"], "checkout leaves the tent out")
        #expect(try after.sessions.stored(session)?.cart.isEmpty == true)
    }

    @Test("A price change shows in open carts at the new price; a placed order keeps its price", arguments: StoreBackend.allCases)
    func priceChange(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let (storage, session, shoes) = try workspace.cart(adding: "trail-running-shoes", at: now)
        let (orderID, _) = try storage.carts.checkout(for: TestSessions.stored(session), at: now)
        _ = try storage.carts.add(productID: shoes.id, for: TestSessions.stored(session), at: now + 1)
        storage.close()

        let export = workspace.run(["catalog", "export"]).output
        let raised = export.replacing("Running,128.00", with: "Running,150.00")
        #expect(raised != export)
        #expect(workspace.run(["catalog", "import", try workspace.file("raised.csv", raised)]).status == 0)

        let after = try workspace.open()
        defer { after.close() }
        let cart = try #require(try after.sessions.stored(session)).cart
        #expect(cart.items.map(\.product.price) == [Money(cents: 15_000)])
        let order = try #require(try after.orders.orders(for: TestSessions.stored(session)).first { $0.id == orderID })
        #expect(order.lines.first { $0.name == "Trail Running Shoes" }?.unitPrice == Money(cents: 12_800))
        #expect(order.total == Money(cents: 12_800 * 2 + 2_450 * 2))
    }

    @Test("A running storage sees an import through its catalog source's refresh", arguments: StoreBackend.allCases)
    func refresh(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let storage = try workspace.open()
        defer { storage.close() }
        #expect(try storage.liveCatalog.refresh(from: storage.catalogStore) == false)
        #expect(workspace.run(["catalog", "import", try workspace.file("own.csv", Self.ownCatalog)]).status == 0)
        #expect(try storage.liveCatalog.refresh(from: storage.catalogStore) == true)
        #expect(storage.liveCatalog.current.catalog.product(slug: "camp-chair") != nil)
        #expect(storage.liveCatalog.current.starterCart.isEmpty)
    }
}
