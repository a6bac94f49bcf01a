import Foundation
@testable import QuickCart
import Testing
import Vips

/// The operator's commands against hostile or mistaken input: a file quoting terminal escapes,
/// spreadsheet formulas in exports, photos that are something else under an image's name, a
/// missing database, every problem of a file reported at once.
@Suite("Operator safety")
struct OperatorSafetyTests {
    @Test("catalog import, catalog export and orders export refuse a missing SQLite file by its path, create nothing, exit 1")
    func missingDatabase() throws {
        let directory = try TemporaryDirectory()
        let database = directory.path + "/no-such-shop.sqlite"
        let catalog = directory.path + "/own.csv"
        try Data(CatalogImportTests.ownCatalog.utf8).write(to: URL(fileURLWithPath: catalog))
        for arguments in [["catalog", "import", catalog], ["catalog", "export"], ["orders", "export"], ["orders", "export", "--follow"]] {
            let run = OperatorRun(arguments, database: database)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.output.isEmpty, "\(arguments) printed \(run.output)")
            #expect(run.report.contains("there is no database at \(database)"), "\(arguments): \(run.report)")
            #expect(!FileManager.default.fileExists(atPath: database), "\(arguments) created the database")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["own.csv"], "no -wal or -shm either")
    }

    @Test("A relative --db is named from the working directory")
    func missingRelativeDatabase() throws {
        let run = OperatorRun(["orders", "export"], database: "no-such-shop-\(UUID().uuidString).sqlite")
        #expect(run.status == 1)
        #expect(run.report.contains("there is no database at \(FileManager.default.currentDirectoryPath)/no-such-shop-"), "\(run.report)")
    }

    @Test("Slugs, columns, JSON keys and values quoted in problems are printable: escapes, never ESC or a line break")
    func printableProblems() throws {
        let workspace = try CatalogImportTests.Workspace()
        let csv = workspace.run(["catalog", "import", try workspace.file("evil.csv", """
            slug,name,category,price,\u{1B}]0;owned\u{07}
            \u{1B}[2Jbad,Name,Misc,1.00,x
            """)])
        let json = workspace.run(["catalog", "import", try workspace.file("evil.json", """
            [{"slug": "\\u001b[31mred", "name": "N", "category": "M", "price": "1", "\\u001b]0;title\\u0007": "x", "icon": "\\u202Eevil"}]
            """)])
        for run in [csv, json] {
            #expect(run.status == 1)
            #expect(!run.report.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(run.report.debugDescription)")
            #expect(run.reportLines.allSatisfy { !$0.contains("\r") })
        }
        #expect(csv.report.contains("unknown column “\\x1B]0;owned\\x07”"), "\(csv.report)")
        #expect(csv.report.contains("“\\x1B[2Jbad” is not URL-safe"), "\(csv.report)")
        #expect(json.report.contains("unknown field “\\x1B]0;title\\x07”"), "\(json.report)")
        #expect(json.report.contains("“\\x1B[31mred” is not URL-safe"), "\(json.report)")
        #expect(json.report.contains("unknown icon “\\u{202E}evil”"), "\(json.report)")
    }

    @Test("An unknown column and four bad rows: the column and every row's problem, checked against the known columns")
    func unknownColumnKeepsRowProblems() throws {
        let workspace = try CatalogImportTests.Workspace()
        let path = try workspace.file("bad.csv", """
            slug,name,colour,category,price
            Bad Slug,One,red,Misc,1.00
            two,,blue,Misc,2.00
            three,Three,green,Misc,ten
            four,Four,,,4.00
            """)
        let run = workspace.run(["catalog", "import", path])
        #expect(run.status == 1)
        #expect(run.reportLines == [
            "\(path): line 1, column 3: unknown column “colour”; the columns are slug, name, summary, category, price, image, icon, featured, active",
            "\(path): line 2, slug: “Bad Slug” is not URL-safe: use lower-case letters a–z, digits and single hyphens between them",
            "\(path): line 3, name: missing",
            "\(path): line 4, price: “ten” is not a price: write dollars with up to two decimals, like 24.50, at most 1000000.00",
            "\(path): line 5, category: missing",
            "quickcart: 5 problems; nothing was imported",
        ])
    }

    @Test("A missing required column is reported once, not as missing on every row; the rows' other problems still show")
    func missingColumnOnce() {
        let problems = CatalogFileTests.problems("slug,name,price\nok,Fine,1.00\nBad,Fine,2.00\n")
        #expect(problems == [
            "line 1: the required column “category” is missing",
            "line 3, slug: “Bad” is not URL-safe: use lower-case letters a–z, digits and single hyphens between them",
        ])
    }

    @Test("A missing photo names the media folder, and says when that folder does not exist yet")
    func mediaFolderNamed() throws {
        let workspace = try CatalogImportTests.Workspace()
        let file = try workspace.file("mug.csv", "slug,name,category,price,image\nmug,Mug,Kitchen,5.00,mug.jpg\n")
        let there = workspace.run(["catalog", "import", file])
        #expect(there.reportLines.first == "\(file): line 2, image: unknown image file “mug.jpg”: it is not in the media folder \(workspace.media)")
        let elsewhere = workspace.directory.path + "/photos"
        let missing = OperatorRun(["catalog", "import", file], database: workspace.database, media: elsewhere)
        #expect(missing.reportLines.first == "\(file): line 2, image: unknown image file “mug.jpg”: it is not in the media folder \(elsewhere), "
            + "which does not exist yet (create it and put the photos there, or name another folder with --media)", "\(missing.report)")
    }

    @Test("A cell holding a Unicode line or paragraph separator is quoted, as one holding a line break is")
    func unicodeLineBreaksQuoted() {
        #expect(CSV.field("a\u{2028}b") == "\"a\u{2028}b\"" && CSV.field("a\u{2029}b") == "\"a\u{2029}b\"")
        #expect(CSV.field("a b") == "a b")
    }

    @Test("Exports write a cell that a spreadsheet would run (=, +, -, @, tab) as text, and import reads its own export back unchanged",
          arguments: CatalogFile.Format.allCases)
    func formulasNeutralised(format: CatalogFile.Format) throws {
        let workspace = try CatalogImportTests.Workspace()
        let names = ["=HYPERLINK(\"http://evil\",\"x\")", "+1 Lamp", "-2 Knife", "@SUM(A1)", "'=quoted already", "'plain quote", "''two"]
        var lines = ["slug,name,summary,category,price"]
        for (index, name) in names.enumerated() {
            // The file the operator wrote says what the name is: as an export writes it.
            lines.append("item-\(index),\(CSV.field(name)),=1+1,@Tools,\(index + 1).00")
        }
        #expect(workspace.run(["catalog", "import", try workspace.file("own.csv", lines.joined(separator: "\n"))]).status == 0)
        let storage = try workspace.open()
        #expect(storage.liveCatalog.current.catalog.products.map(\.name) == names)
        #expect(storage.liveCatalog.current.catalog.products.allSatisfy { $0.summary == "=1+1" && $0.category == "@Tools" })
        let ordered = try OrderExportTests.placeOrder(storage, ["item-0", "item-2"], at: 1_796_029_300)
        storage.close()

        let export = workspace.run(["catalog", "export", "--format", format.rawValue])
        if format == .csv {
            #expect(export.output.contains("item-0,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",\"'=1+1\",\"'@Tools\","), "\(export.output)")
            #expect(export.output.contains("item-1,\"'+1 Lamp\","))
            #expect(export.output.contains("item-4,\"''=quoted already\","))
            #expect(export.output.contains("item-5,\"''plain quote\","))
            for line in export.output.split(separator: "\n") {
                for cell in line.split(separator: ",") {
                    #expect(!["=", "+", "-", "@", "\t", "\r"].contains(cell.first), "a live cell: \(cell)")
                }
            }
        }
        let again = workspace.run(["catalog", "import", try workspace.file("export.\(format.rawValue)", export.output)])
        #expect(again.status == 0, "\(again.report)")
        #expect(again.output.hasSuffix("no changes\n"), "\(again.output)")
        let reopened = try workspace.open()
        #expect(reopened.liveCatalog.current.catalog.products.map(\.name) == names)
        reopened.close()

        let orders = workspace.run(["orders", "export"])
        #expect(orders.output.contains("\(ordered),2026-11-30T09:01:40Z,4.00,2,1,item-0,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",1.00,1,1.00"), "\(orders.output)")
        #expect(orders.output.contains(",item-2,\"'-2 Knife\",3.00,1,3.00"), "\(orders.output)")
    }

    @Test("A PDF, an SVG, a GIF or text named .jpg, .webp or .png is refused by its first bytes, before libvips sees it")
    func impostorsRefused() throws {
        let directory = try TemporaryDirectory()
        let files: [(name: String, bytes: [UInt8], says: String)] = [
            ("doc.jpg", Array("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n".utf8), "it holds a PDF document, not a JPEG, PNG or WebP image"),
            ("m.webp", Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>".utf8), "it holds an SVG or other XML document, not a JPEG, PNG or WebP image"),
            ("x.png", Array("<?xml version=\"1.0\"?><svg/>".utf8), "it holds an SVG or other XML document, not a JPEG, PNG or WebP image"),
            ("a.jpg", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], "it holds a GIF image, not a JPEG, PNG or WebP image"),
            ("b.webp", Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8), "it is not a JPEG, PNG or WebP image"),
            ("c.jpg", [], "it is not a JPEG, PNG or WebP image"),
        ]
        for file in files {
            try PhotoTests.write(file.bytes, to: directory.path + "/" + file.name)
        }
        let images = CatalogImages(mediaDirectory: directory.path)
        for file in files {
            #expect(images.problem(with: file.name) == "“\(file.name)” is not a readable image: \(file.says)", "\(file.name)")
        }
        // A real image under another format's name is read as what it is.
        try PhotoTests.write(try ImageProcessor.solidImage(width: 40, height: 30, format: .png), to: directory.path + "/really-png.jpg")
        #expect(images.problem(with: "really-png.jpg") == nil)
        #expect(throws: ImageError.self) { try ImageProcessor.header(of: Array("%PDF-1.4".utf8)) }
    }

    @Test("A file over the size limit is refused by its size, without being read")
    func oversizedByItsSize() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/huge.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF])))
        // Sparse: 4 GB on paper, nothing on disk; reading it whole would take that much memory.
        #expect(truncate(path, 4 << 30) == 0)
        #expect(CatalogImages(mediaDirectory: directory.path).problem(with: "huge.jpg") == "“huge.jpg” is larger than 50 MB")
    }

    @Test("A damaged JPEG gives one readable message and no raw VIPS-WARNING lines on standard error")
    func noRawWarnings() throws {
        let workspace = try CatalogImportTests.Workspace()
        let jpeg = try ImageProcessor.solidImage(width: 640, height: 480, format: .jpeg)
        try PhotoTests.write(Array(jpeg.prefix(jpeg.count / 2)), to: workspace.media + "/mug.jpg")
        let catalog = try workspace.file("mug.csv", "slug,name,category,price,image\nmug,Mug,Kitchen,5.00,mug.jpg\n")
        let run = try ChildProcess(
            try Self.quickcartBinary().path,
            ["catalog", "import", catalog, "--db", workspace.database, "--media", workspace.media, "--resources", TestShop.repositoryRoot]
        )
        let text = run.errors
        #expect(run.status == 1)
        #expect(!text.contains("VIPS-WARNING") && !text.contains("WARNING **"), "\(text)")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2, "\(text)")
        #expect(lines.first?.hasPrefix("\(catalog): line 2, image: “mug.jpg” is damaged or cannot be decoded (decoding the image: ") == true, "\(text)")
    }

    /// The `quickcart` executable built beside this test bundle.
    static func quickcartBinary() throws -> URL {
        let bundle = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let binary = URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("quickcart")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the quickcart product first: \(binary.path)")
        return binary
    }
}
