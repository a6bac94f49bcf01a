@testable import QuickCart
import Testing

/// `quickcart delivery import` and `export`: the shop's delivery methods from a file, checked
/// whole like the catalog, on each backend.
@Suite("Delivery import")
struct DeliveryImportTests {
    typealias Workspace = CatalogImportTests.Workspace

    static let own = """
        code,name,price,countries,free_from,payment,payment_details
        post,Posten,99.01,NO SE,500,bank-transfer,"Konto 1234.56.78901, merk med ordrenummer"
        shop,Hent i butikken,0,*,,in-store,
        door,Cash on delivery,12.5,no,,on-delivery,=pay the driver
        """

    static func methods(in workspace: Workspace) throws -> [DeliveryMethod] {
        let storage = try workspace.open()
        defer { storage.close() }
        return try storage.deliveryMethods.deliveryMethods()
    }

    @Test("An import puts the file's methods in place of the shop's, exactly, in file order", arguments: StoreBackend.allCases)
    func importsMethods(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let path = try workspace.file("delivery.csv", Self.own)
        let run = workspace.run(["delivery", "import", path])
        #expect(run.status == 0, "\(run.report)")
        #expect(run.output.contains("imported 3 delivery methods") && run.output.contains("added post") && run.output.contains("removed standard"))
        // Again with the post's price changed: the dry run says which method changes, and which stay.
        let changed = try workspace.file("changed.csv", Self.own.replacingOccurrences(of: "post,Posten,99.01", with: "post,Posten,109"))
        let dry = workspace.run(["delivery", "import", changed, "--dry-run"])
        #expect(dry.output.split(separator: "\n").dropFirst() == ["changed post", "kept shop", "kept door"], "\(dry.output)")
        // Countries in another order are the same countries; methods in another order are a change.
        let reordered = try workspace.file("reordered.csv", """
            code,name,price,countries,free_from,payment,payment_details
            post,Posten,99.01,SE NO,500,bank-transfer,"Konto 1234.56.78901, merk med ordrenummer"
            door,Cash on delivery,12.5,no,,on-delivery,=pay the driver
            shop,Hent i butikken,0,*,,in-store,
            """)
        let moved = workspace.run(["delivery", "import", reordered, "--dry-run"])
        #expect(moved.output.split(separator: "\n").dropFirst() == ["kept post", "kept door", "kept shop", "new order: post, door, shop"], "\(moved.output)")
        let methods = try Self.methods(in: workspace)
        #expect(methods == [
            DeliveryMethod(code: "post", name: "Posten", price: Money(cents: 9_901), countries: ["NO", "SE"], freeFrom: Money(cents: 50_000),
                           payment: .bankTransfer, paymentDetails: "Konto 1234.56.78901, merk med ordrenummer"),
            DeliveryMethod(code: "shop", name: "Hent i butikken", price: .zero, countries: [], payment: .inStore),
            DeliveryMethod(code: "door", name: "Cash on delivery", price: Money(cents: 1_250), countries: ["NO"], payment: .onDelivery,
                           paymentDetails: "=pay the driver"),
        ])
    }

    @Test("--dry-run and a bad file write nothing; a bad file names every problem with its line and field", arguments: StoreBackend.allCases)
    func refusals(backend: StoreBackend) throws {
        let workspace = try Workspace(backend)
        let dry = workspace.run(["delivery", "import", try workspace.file("d.csv", Self.own), "--dry-run"])
        #expect(dry.status == 0 && dry.output.contains("nothing was written"))
        #expect(try Self.methods(in: workspace) == DeliverySeed.methods)
        let bad = try workspace.file("bad.csv", """
            code,name,price,countries,payment,colour
            Post Office,,6.955,US XX,cheque,red
            ok,Fine,1,US,in-store,blue
            ok,Again,1,*,in-store,
            """)
        let run = workspace.run(["delivery", "import", bad])
        #expect(run.status == 1)
        let lines = run.reportLines
        for expected in [
            "line 1, column 6: unknown column “colour”", "line 2, code: “Post Office” is not a code", "line 2, name: missing",
            "line 2, price: “6.955” is not an amount", "line 2, countries: “XX” is not a country", "line 2, payment: “cheque” is not a way to pay",
            "line 4, code: “ok” is already used on line 3",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "no “\(expected)” in \(lines)")
        }
        #expect(lines.last?.contains("nothing was imported") == true)
        #expect(try Self.methods(in: workspace) == DeliverySeed.methods)
    }

    @Test("Export then import changes nothing, in CSV and in JSON", arguments: StoreBackend.allCases, TableFile.Format.allCases)
    func roundTrip(backend: StoreBackend, format: TableFile.Format) throws {
        let workspace = try Workspace(backend)
        #expect(workspace.run(["delivery", "import", try workspace.file("d.csv", Self.own)]).status == 0)
        let exported = workspace.run(["delivery", "export", "--format", format.rawValue])
        #expect(exported.status == 0)
        let path = try workspace.file("again." + format.rawValue, exported.output)
        #expect(workspace.run(["delivery", "import", path]).status == 0)
        #expect(workspace.run(["delivery", "export", "--format", format.rawValue]).output == exported.output)
        #expect(exported.output.contains("\"'=pay the driver\"") == (format == .csv), "a formula-like cell is written as text in CSV")
        #expect(try Self.methods(in: workspace).map(\.paymentDetails).last == "=pay the driver")
    }

    @Test("A JSON file reads prices as numbers or strings, and says what is wrong with other types")
    func json() {
        let good = #"[{"code": "post", "name": "Post", "price": 6.5, "countries": "US", "free_from": "50", "payment": "bank-transfer"}]"#
        #expect((try? DeliveryFile.read(Array(good.utf8)).get())?.first?.price == Money(cents: 650))
        let bad = #"[{"code": "post", "name": "Post", "price": true, "countries": "US", "payment": "bank-transfer", "extra": 1}]"#
        guard case .failure(let failure) = DeliveryFile.read(Array(bad.utf8)) else {
            Issue.record("a bad JSON file was read")
            return
        }
        #expect(failure.problems.map(\.description) == [
            "line 1, price: must be a string or number like \"24.50\"", "line 1, extra: unknown field “extra”; the fields are \(DeliveryFile.fields.joined(separator: ", "))",
        ])
    }
}
