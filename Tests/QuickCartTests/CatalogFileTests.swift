@testable import QuickCart
import Testing

/// The catalog file format on its own: reading CSV and JSON, and every kind of problem, each
/// with its line and field.
@Suite("Catalog file")
struct CatalogFileTests {
    /// A context where the media folder holds `shoe.jpg` only and the icons are a few.
    static let context = CatalogFile.Context(hasMediaFile: { $0 == "shoe.jpg" }, knownIcons: ["shoe", "tent", "cart"])

    static func read(_ text: String) -> Result<[CatalogFile.Row], CatalogFile.Failure> {
        CatalogFile.read(Array(text.utf8), context: context)
    }

    /// The problems of a file that must be refused, as printed.
    static func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        switch read(text) {
        case .success(let rows):
            Issue.record("the file was accepted: \(rows)", sourceLocation: sourceLocation)
            return []
        case .failure(let failure):
            return failure.problems.map(\.description)
        }
    }

    static let header = "slug,name,summary,category,price,image,icon,featured,active\n"

    @Test("A good CSV file: quoted commas, doubled quotes, CRLF, a BOM, blank lines, defaults")
    func goodCSV() throws {
        let text = "\u{FEFF}" + Self.header.replacing("\n", with: "\r\n")
            + "trail-shoes,Trail Shoes,\"Grippy, \"\"cushioned\"\" shoes\",Running,128.00,shoe.jpg,shoe,true,true\r\n"
            + "tent,Tent,\"Light, roomy\",Camping,349,,tent,,\r\n"
            + "\r\n"
            + "mug,Mug,,Kitchen,3.5,,,no,0\r\n"
        let rows = try Self.read(text).get()
        #expect(rows.map(\.slug) == ["trail-shoes", "tent", "mug"])
        #expect(rows.map(\.line) == [2, 3, 5])
        #expect(rows[0].summary == "Grippy, \"cushioned\" shoes" && rows[0].image == "shoe.jpg" && rows[0].isFeatured)
        #expect(rows[1].summary == "Light, roomy")
        #expect(rows.map(\.price) == [Money(cents: 12_800), Money(cents: 34_900), Money(cents: 350)])
        #expect(rows[1].isActive && !rows[1].isFeatured && rows[1].icon == "tent")
        #expect(!rows[2].isActive && rows[2].icon == nil)
    }

    @Test("CSV records may span lines inside quotes; each record knows the line it starts on")
    func multilineRecords() throws {
        let records = try CSV.records(in: "a,b\n\"one\ntwo\",3\r\n\n\"\",\"x\"\"y\"\nlast,")
        #expect(records.map(\.line) == [1, 2, 5, 6])
        #expect(records.map(\.fields) == [["a", "b"], ["one\ntwo", "3"], ["", "x\"y"], ["last", ""]])
    }

    @Test("A good JSON file: prices as text or as numbers, exact; booleans; null image")
    func goodJSON() throws {
        let text = """
            [
              {"slug": "trail-shoes", "name": "Trail Shoes", "category": "Running", "price": "24.50", "featured": true},
              {"slug": "tent", "name": "Tent \\u00e9", "summary": "Light", "category": "Camping",
               "price": 0.10, "image": null, "active": false}
            ]
            """
        let rows = try Self.read(text).get()
        #expect(rows.map(\.slug) == ["trail-shoes", "tent"])
        #expect(rows.map(\.line) == [2, 3])
        #expect(rows.map(\.price) == [Money(cents: 2_450), Money(cents: 10)])
        #expect(rows[0].isFeatured && rows[0].isActive && rows[1].name == "Tent é" && !rows[1].isActive)
    }

    @Test("Prices are exact cents: up to two decimals, no signs, exponents or separators", arguments: [
        ("24.50", Int64?(2_450)), ("24.5", 2_450), ("24", 2_400), ("0.01", 1), ("1000000.00", 100_000_000),
        ("24.505", nil), ("-1.00", nil), ("1e3", nil), ("1,200.00", nil), ("$5", nil), (".50", nil), ("5.", nil),
        ("1000000.01", nil), ("", nil), ("0.1.2", nil), ("２４", nil),
    ])
    func prices(text: String, cents: Int64?) {
        #expect(CatalogFile.parsePrice(text)?.cents == cents)
    }

    @Test("Every problem of a bad CSV file is reported with its line and column")
    func everyProblem() {
        let problems = Self.problems(Self.header
            + "good-one,Good,,Misc,1.00,,,,\n"
            + "Bad Slug,,x,Misc,12.345,missing.jpg,nope,maybe,true\n"
            + "good-one,Again,,Misc,2.00,,,,\n"
            + "-edge-,Edge,,,1,../etc.jpg,,,\n"
            + "\(String(repeating: "a", count: 81)),Long,,Misc,1,photo.gif,,,\n"
            + "short,row\n")
        #expect(problems == [
            "line 3, slug: “Bad Slug” is not URL-safe: use lower-case letters a–z, digits and single hyphens between them",
            "line 3, name: missing",
            "line 3, price: “12.345” is not a price: write dollars with up to two decimals, like 24.50, at most 1000000.00",
            "line 3, image: unknown image file “missing.jpg”: it is not in the media folder",
            "line 3, icon: unknown icon “nope”",
            "line 3, featured: “maybe” is not true or false",
            "line 4, slug: “good-one” is already used on line 2",
            "line 5, slug: “-edge-” is not URL-safe: use lower-case letters a–z, digits and single hyphens between them",
            "line 5, category: missing",
            "line 5, image: “../etc.jpg” must be a plain file name in the media folder",
            "line 6, slug: longer than 80 characters",
            "line 6, image: “photo.gif” is not a .jpg, .jpeg, .png or .webp file",
            "line 7: 2 fields where the header names 9 (a comma inside a value needs quotes)",
        ])
    }

    @Test("Unknown, repeated and missing columns are reported on line 1")
    func columns() {
        #expect(Self.problems("slug,name,price,colour,name\nx,X,1,red,Y\n") == [
            "line 1, column 4: unknown column “colour”; the columns are slug, name, summary, category, price, image, icon, featured, active",
            "line 1, column 5: the column “name” appears twice",
            "line 1: the required column “category” is missing",
        ])
    }

    @Test("A minified JSON file's problems name the object as well as its line, which would all be line 1")
    func minifiedJSON() {
        let minified = #"[{"slug":"a","name":"A","category":"C","price":"1"},{"slug":"b","name":"B","category":"C","price":"x","colour":"red"},{"slug":"a","name":"A2","category":"C","price":"2"},7]"#
        #expect(Self.problems(minified) == [
            "line 1, product 2, colour: unknown field “colour”; the fields are slug, name, summary, category, price, image, icon, featured, active",
            "line 1, product 2, price: “x” is not a price: write dollars with up to two decimals, like 24.50, at most 1000000.00",
            "line 1, product 3, slug: “a” is already used by product 1",
            "line 1, product 4: each element of the array must be an object",
        ])
        // One object a line: the line says which, as before.
        #expect(Self.problems("[\n{\"slug\":\"a\",\"name\":\"A\",\"category\":\"C\",\"price\":\"x\"}\n]") == ["line 2, price: “x” is not a price: write dollars with up to two decimals, like 24.50, at most 1000000.00"])
    }

    @Test("Text that is not a catalog at all is refused as such", arguments: [
        ("Hello, this is a letter.\nRegards\n", "line 1: this is not a catalog file"),
        ("<html><body>catalog</body></html>", "line 1: this is not a catalog file"),
        // A spreadsheet's CSV in many European languages, and a tab-separated export.
        ("slug;name;category;price\nx;X;Y;1\n", "line 1: this file separates its columns with semicolons; QuickCart reads commas: save it again as “CSV UTF-8 (comma delimited)”, or as JSON"),
        ("Slug\tName\tCategory\tPrice\nx\tX\tY\t1\n", "line 1: this file separates its columns with tabs; QuickCart reads commas"),
        ("slug;name\nx;X\n", "line 1: this is not a catalog file"),
        ("\"slug\";\"name\";\"category\";\"price\"\r\n\"x\";\"X\";\"Y\";\"1\"\r\n", "line 1: this file separates its columns with semicolons"),
        ("slug;\"name\";category;price\nx;X;Y;1\n", "line 1: this file separates its columns with semicolons"),
        ("\"slug\"\t\"name\"\t\"category\"\t\"price\"\n", "line 1: this file separates its columns with tabs"),
        ("\"slug\";\"name\"\nx;X\n", "line 1: not valid CSV"),
        ("sep=;\nslug;name;category;price\nx;X;Y;1\n", "line 1: this file's first line (“sep=;”) names another separator than commas"),
        ("", "the file is empty"),
        ("   \n\n", "the file is empty"),
        ("{\"slug\": \"x\"}", "line 1: a JSON catalog is an array of product objects"),
        ("[1]", "line 1: each element of the array must be an object"),
        ("[{\"slug\": \"x\",}]", "line 1, column 15: not valid JSON"),
        ("[\n{\"slug\": \"x\"\n", "line 3, column 1: not valid JSON"),
        ("[\r{\"slug\": \"x\"},\r  x]", "line 3, column 3: not valid JSON"),
        ("[\r\n{\"slug\": \"x\"},\r\n  x]", "line 3, column 3: not valid JSON"),
        // A minified file is one line: the column, in characters, says where.
        ("[{\"slug\":\"café\",\"name\":\"x\"} {\"slug\":\"b\"}]", "line 1, column 29: not valid JSON"),
        ("slug,name,category,price\n\"open,Quote,Misc,1\n", "line 2: not valid CSV: a quoted field is never closed"),
        ("slug,name,category,price\nab\"c,Quote,Misc,1\n", "line 2: not valid CSV: a quote inside an unquoted field"),
        (Self.header, "the file lists no products"),
        (String(repeating: "[", count: 100_000), "line 1, column 33: not valid JSON: nested too deeply"),
    ])
    func notACatalog(text: String, expected: String) {
        let problems = Self.problems(text)
        #expect(problems.count == 1 && problems[0].hasPrefix(expected), "\(problems)")
    }

    @Test("Binary data and text that is not UTF-8 are refused, naming each line that is not")
    func encodings() {
        let binary = CatalogFile.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00], context: Self.context)
        guard case .failure(let binaryFailure) = binary else {
            Issue.record("binary data was accepted")
            return
        }
        #expect(binaryFailure.problems.map(\.description) == ["this is not a CSV or JSON file: it holds binary data"])
        // Latin-1 "café" on lines 3 and 4.
        var bytes = Array((Self.header + "cafe,Caf").utf8) + [0xE9] + Array(",,Misc,1,,,,\nthe-cafe,The Caf".utf8) + [0xE9]
        bytes += Array(",,Misc,1,,,,\n".utf8)
        guard case .failure(let failure) = CatalogFile.read(bytes, context: Self.context) else {
            Issue.record("Latin-1 text was accepted")
            return
        }
        #expect(failure.problems.map(\.description) == [
            "line 2: not UTF-8 text (save the file as UTF-8)", "line 3: not UTF-8 text (save the file as UTF-8)",
        ])
    }

    @Test("A file over the product limit says the limit, why it holds, and that splitting the file is no way round it")
    func tooManyProducts() {
        let rows = (0...CatalogFile.maximumProducts).map { "p-\($0),P,Misc,1.00\n" }.joined()
        let problems = Self.problems("slug,name,category,price\n" + rows)
        #expect(problems.count == 1)
        let message = problems.first ?? ""
        #expect(message.hasPrefix("the file lists 10001 products, more than the 10000 an import takes"), "\(message)")
        #expect(message.contains("in memory") && message.contains("leave out the products you no longer sell"), "\(message)")
    }

    @Test("JSON problems name the member and its line: wrong types, unknown fields, missing ones")
    func jsonProblems() {
        let problems = Self.problems("""
            [
              {"slug": "a", "name": "A", "category": "Misc", "price": true},
              {"slug": "b", "name": "B", "category": "Misc", "price": "1",
               "colour": "red"},
              {"slug": "c", "category": "Misc", "price": "1", "featured": "sometimes"},
              {"slug": "d", "name": 5, "category": "Misc", "price": "1"}
            ]
            """)
        #expect(problems == [
            "line 2, price: must be a string or number like \"24.50\"",
            "line 4, colour: unknown field “colour”; the fields are slug, name, summary, category, price, image, icon, featured, active",
            "line 5, name: missing",
            "line 5, featured: “sometimes” is not true or false",
            "line 6, name: must be a string",
        ])
    }

    @Test("Names, summaries and categories have length limits and no control characters")
    func lengths() {
        let problems = Self.problems(Self.header
            + "a,\(String(repeating: "n", count: 121)),\(String(repeating: "s", count: 301)),\(String(repeating: "c", count: 61)),1,,,,\n"
            + "b,Tab\there,,Misc,1,,,,\n")
        #expect(problems == [
            "line 2, name: longer than 120 characters",
            "line 2, summary: longer than 300 characters",
            "line 2, category: longer than 60 characters",
            "line 3, name: holds a line break or other control character",
        ])
    }

    @Test("What the writer writes reads back as the same products, in CSV and in JSON", arguments: CatalogFile.Format.allCases)
    func writeThenRead(format: CatalogFile.Format) throws {
        let products = [
            Product(id: 1, slug: "odd-one", name: "Odd, \"quoted\" one", summary: "One line, with ü and \"quotes\"", category: "Misc",
                    price: Money(cents: 1_234_56), icon: "tent", isFeatured: true, isActive: false,
                    image: ProductImage(fileName: "shoe.jpg", key: "ab", width: 320, height: 200)),
            Product(id: 2, slug: "plain", name: " Spaced ", summary: "", category: "Misc", price: Money(cents: 5), icon: "cart", isFeatured: false),
        ]
        let text = CatalogFile.text(of: products, format: format)
        let rows = try Self.read(text).get()
        #expect(rows.map(\.slug) == ["odd-one", "plain"])
        #expect(rows[0].name == "Odd, \"quoted\" one" && rows[0].summary == "One line, with ü and \"quotes\"")
        #expect(rows.map(\.price) == products.map(\.price))
        #expect(rows.map(\.image) == ["shoe.jpg", nil])
        #expect(rows.map(\.icon) == ["tent", "cart"])
        #expect(rows.map(\.isFeatured) == [true, false] && rows.map(\.isActive) == [false, true])
        #expect(CatalogFile.text(of: products, format: format) == text)
    }

    @Test("Damaged copies of a good file never crash the reader: each is read whole, or refused with problems")
    func damagedFiles() throws {
        let good = Array((Self.header + "trail-shoes,Trail Shoes,\"Grippy, \"\"cushioned\"\"\",Running,128.00,shoe.jpg,shoe,true,true\n"
            + "tent,Tent,Light,Camping,349,,tent,,\n").utf8)
        let json = Array("[{\"slug\": \"a\", \"name\": \"A \\u00e9\", \"category\": \"M\", \"price\": 1.5, \"active\": false}]".utf8)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(",\"\n\r[]{}:\\ a-.0\u{FF}".utf8)
        for source in [good, json] {
            for _ in 0..<2_000 {
                var bytes = source
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = alphabet.randomElement(using: &generator)!
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
                    }
                }
                switch CatalogFile.read(bytes, context: Self.context) {
                case .success(let rows): #expect(!rows.isEmpty)
                case .failure(let failure): #expect(!failure.problems.isEmpty && failure.problems.allSatisfy { !$0.message.isEmpty })
                }
            }
        }
    }

    @Test("The demo catalog file holds the demo products, in order, and is valid")
    func demoFile() throws {
        let entries = try DemoCatalog.entries(resourcesPath: TestShop.repositoryRoot)
        #expect(entries.map(\.slug) == CatalogSeed.products.map(\.slug))
        #expect(entries.map(\.name) == CatalogSeed.products.map(\.name))
        #expect(entries.map(\.summary) == CatalogSeed.products.map(\.summary))
        #expect(entries.map(\.price.cents) == CatalogSeed.products.map(\.priceCents))
        #expect(entries.map(\.icon) == CatalogSeed.products.map(\.icon))
        #expect(entries.map(\.isFeatured) == CatalogSeed.products.map(\.featured))
        #expect(entries.allSatisfy { $0.isActive })
    }
}
