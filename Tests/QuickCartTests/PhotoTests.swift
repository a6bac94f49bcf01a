import Foundation
import HTTPTesting
@testable import QuickCart
import Synchronization
import Testing
import Vips

/// Product photos: thumbnails made at import with libvips, metadata stripped, damaged or huge
/// files refused, and the thumbnails served with immutable caching.
@Suite("Photos")
struct PhotoTests {
    /// A JPEG made by libvips, with an EXIF block naming `artist` put in after its start marker.
    static func jpegWithEXIF(width: Int, height: Int, artist: String) throws -> [UInt8] {
        let jpeg = try ImageProcessor.solidImage(width: width, height: height, format: .jpeg)
        let text = Array(artist.utf8) + [0]
        // TIFF header (big-endian), one IFD entry: Artist (0x013B), ASCII, its text after the IFD.
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x01, 0x3B, 0x00, 0x02]
        tiff += [0, 0, 0, UInt8(text.count), 0, 0, 0, 26, 0, 0, 0, 0] + text
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard needle.count <= bytes.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("Import makes a 160 and a 320 pixel wide WebP of a photo, named by its hash, with the EXIF gone")
    func thumbnails() throws {
        let directory = try TemporaryDirectory()
        let original = try Self.jpegWithEXIF(width: 800, height: 600, artist: "Secret Photographer")
        try Self.write(original, to: directory.path + "/shoe.jpg")
        #expect(try ImageProcessor.metadataNames(of: original).contains("exif-data"), "the test photo carries EXIF")

        let image = try CatalogImages(mediaDirectory: directory.path).process(fileName: "shoe.jpg", write: true).get()
        #expect(image.key == Hex.encode(SHA256.hash(original)))
        #expect(image.width == 320 && image.height == 240)
        #expect(image.thumbnailSize(width: 160) == (160, 120))
        for width in ProductImage.widths {
            let path = CatalogImages.generatedDirectory(in: directory.path) + "/" + image.thumbnailName(width: width)
            let bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init), "no \(path)")
            let header = try ImageProcessor.header(of: bytes)
            #expect(header == ImageProcessor.Header(width: width, height: width * 3 / 4, format: "webp"))
            let metadata = try ImageProcessor.metadataNames(of: bytes)
            #expect(!metadata.contains("exif-data") && !metadata.contains("xmp-data") && !metadata.contains("icc-profile-data"), "\(metadata)")
            #expect(!Self.contains(bytes, "Secret Photographer") && !Self.contains(bytes, "Exif"))
            #expect(try ImageProcessor.webPThumbnail(of: bytes, width: 80).width == 80, "the stripped file still decodes")
        }
    }

    @Test("Images read and thumbnailed from many threads at once give each its own result and error")
    func concurrentCalls() throws {
        let jpeg = try ImageProcessor.solidImage(width: 640, height: 480, format: .jpeg)
        let truncated = Array(jpeg.prefix(jpeg.count / 2))
        let fake = Array("this is not a picture at all".utf8)
        @Sendable func outcome(_ index: Int) -> String {
            do throws(ImageError) {
                switch index % 3 {
                case 0: return "\(try ImageProcessor.webPThumbnail(of: jpeg, width: 160).width)"
                case 1: return "\(try ImageProcessor.webPThumbnail(of: truncated, width: 160).width)"
                default: return "\(try ImageProcessor.header(of: fake).width)"
                }
            } catch {
                return error.description
            }
        }
        let expected = (0..<3).map(outcome)
        #expect(expected[0] == "160" && expected[1] != expected[2], "\(expected)")
        let results = Mutex<[Int: String]>([:])
        DispatchQueue.concurrentPerform(iterations: 60) { index in
            let result = outcome(index)
            results.withLock { $0[index] = result }
        }
        for (index, result) in results.withLock({ $0 }) {
            #expect(result == expected[index % 3], "call \(index)")
        }
    }

    @Test("A small original is never enlarged")
    func noUpscaling() throws {
        let directory = try TemporaryDirectory()
        try Self.write(try ImageProcessor.solidImage(width: 200, height: 100, format: .png), to: directory.path + "/small.png")
        let image = try CatalogImages(mediaDirectory: directory.path).process(fileName: "small.png", write: false).get()
        #expect(image.width == 200 && image.height == 100)
        #expect(!FileManager.default.fileExists(atPath: CatalogImages.generatedDirectory(in: directory.path)), "nothing is written without write")
        #expect(ProductPhoto(image, name: "Small").srcset.string == "/media/\(image.key)-160.webp 160w, /media/\(image.key)-320.webp 200w")
        // Narrower than both: the two thumbnails are alike, and the page offers one (two
        // candidates of one width make a srcset invalid).
        try Self.write(try ImageProcessor.solidImage(width: 120, height: 60, format: .png), to: directory.path + "/tiny.png")
        let tiny = try CatalogImages(mediaDirectory: directory.path).process(fileName: "tiny.png", write: false).get()
        #expect(ProductPhoto(tiny, name: "Tiny").srcset.string == "/media/\(tiny.key)-160.webp 120w")
    }

    @Test("A very tall original is shrunk to fit four times its width in height, not sent at full height")
    func tallOriginalBounded() throws {
        let directory = try TemporaryDirectory()
        try Self.write(try ImageProcessor.solidImage(width: 150, height: 6000, format: .png), to: directory.path + "/banner.png")
        let image = try CatalogImages(mediaDirectory: directory.path).process(fileName: "banner.png", write: true).get()
        #expect(image.width == 32 && image.height == 1280, "\(image.width) × \(image.height)")
        for width in ProductImage.widths {
            let path = CatalogImages.generatedDirectory(in: directory.path) + "/" + image.thumbnailName(width: width)
            let header = try ImageProcessor.header(of: try #require(FileManager.default.contents(atPath: path).map(Array.init)))
            #expect(header.height == width * ProductImage.maximumAspect && header.width == width / 10, "\(width): \(header)")
            #expect(image.thumbnailSize(width: width) == (header.width, header.height))
        }
        #expect(ProductPhoto(image, name: "Banner").srcset.string == "/media/\(image.key)-160.webp 16w, /media/\(image.key)-320.webp 32w")
    }

    @Test("A damaged, fake or huge image is refused with a clear message")
    func refused() throws {
        let directory = try TemporaryDirectory()
        let jpeg = try ImageProcessor.solidImage(width: 640, height: 480, format: .jpeg)
        try Self.write(Array(jpeg.prefix(jpeg.count / 2)), to: directory.path + "/truncated.jpg")
        try Self.write(Array("this is not a picture at all".utf8), to: directory.path + "/fake.jpg")
        try Self.write(try ImageProcessor.solidImage(width: 13_000, height: 8, format: .png), to: directory.path + "/wide.png")
        let images = CatalogImages(mediaDirectory: directory.path)
        func message(_ name: String) -> String {
            switch images.process(fileName: name, write: true) {
            case .success: "accepted"
            case .failure(let problem): problem.message
            }
        }
        #expect(message("truncated.jpg").hasPrefix("“truncated.jpg” is damaged or cannot be decoded"), "\(message("truncated.jpg"))")
        #expect(message("fake.jpg").hasPrefix("“fake.jpg” is not a readable image"), "\(message("fake.jpg"))")
        #expect(message("wide.png") == "“wide.png” is 13000 × 8 pixels; the limit is 12000 pixels a side and 50 megapixels")
        let generated = CatalogImages.generatedDirectory(in: directory.path)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: generated))?.isEmpty ?? true, "no thumbnail of a refused image")
    }

    @Test("An import into a media folder its user may not write is refused before anything is made, a dry run too, naming the folder and what to do")
    func unwritableMediaFolder() throws {
        let workspace = try CatalogImportTests.Workspace()
        try Self.write(try ImageProcessor.solidImage(width: 200, height: 200, format: .png), to: workspace.media + "/chair.png")
        let file = try workspace.file("photos.csv", "slug,name,category,price,image\ncamp-chair,Camp Chair,Camping,45.00,chair.png\n")
        // As root, the folders stay root's and the import runs as nobody, as when root copied the
        // photos in and the service's user imports them; otherwise the media folder is read-only.
        let user: String? = getuid() == 0 ? "nobody" : nil
        #expect(chmod(workspace.directory.path, 0o755) == 0 && chmod(file, 0o644) == 0 && chmod(workspace.media + "/chair.png", 0o644) == 0)
        #expect(chmod(workspace.media, user == nil ? 0o555 : 0o755) == 0)
        defer { chmod(workspace.media, 0o755) }
        let generated = CatalogImages.generatedDirectory(in: workspace.media)
        let name = user ?? String(cString: getpwuid(geteuid()).pointee.pw_name)
        for dryRun in [["--dry-run"], []] {
            let run = try ExecutableRun(
                ["catalog", "import", file] + dryRun + ["--db", workspace.database, "--media", workspace.media, "--resources", TestShop.repositoryRoot], user: user
            )
            #expect(run.status == 1, "\(dryRun): \(run.output)")
            #expect(run.errors == "quickcart: cannot write thumbnails into \(generated) (\(workspace.media): Permission denied): make the media folder writable by \(name), "
                + "the user this runs as (chown -R \(name): \(workspace.media)); nothing was imported\n", "\(dryRun): \(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: generated))
        let storage = try workspace.open()
        defer { storage.close() }
        #expect(try storage.catalogStore.loadCatalog().origin == .demo, "nothing was imported")
    }

    @Test("An import with a damaged photo writes nothing and names the line; a good one stores the photo and round-trips")
    func importWithPhotos() throws {
        let workspace = try CatalogImportTests.Workspace()
        try Self.write(try Self.jpegWithEXIF(width: 640, height: 480, artist: "A"), to: workspace.media + "/chair.jpg")
        try Self.write(Array("junk".utf8), to: workspace.media + "/broken.webp")
        let before = try workspace.listing()
        let bad = workspace.run(["catalog", "import", try workspace.file("bad.csv", """
            slug,name,category,price,image
            camp-chair,Camp Chair,Camping,45.00,chair.jpg
            camp-table,Camp Table,Camping,65.00,broken.webp
            Camp Stool,Camp Stool,Camping,25.00,
            """)])
        #expect(bad.status == 1)
        #expect(bad.reportLines.count == 3, "the photo's problem is reported with the file's: \(bad.report)")
        #expect(bad.reportLines.first?.contains("line 3, image: “broken.webp” is not a readable image") == true, "\(bad.report)")
        #expect(bad.reportLines.dropFirst().first?.contains("line 4, slug:") == true, "\(bad.report)")
        #expect(!FileManager.default.fileExists(atPath: CatalogImages.generatedDirectory(in: workspace.media)), "a refused import writes no thumbnail")
        #expect(try workspace.listing() == before)

        let good = workspace.run(["catalog", "import", try workspace.file("good.csv", """
            slug,name,category,price,image
            camp-chair,Camp Chair,Camping,45.00,chair.jpg
            """)])
        #expect(good.status == 0, "\(good.report)")
        let storage = try workspace.open()
        let chair = try storage.product("camp-chair")
        storage.close()
        #expect(chair.image?.fileName == "chair.jpg" && chair.image?.width == 320 && chair.image?.height == 240)

        let export = workspace.run(["catalog", "export"]).output
        #expect(export.contains("camp-chair,Camp Chair,,Camping,45.00,chair.jpg,"))
        let again = workspace.run(["catalog", "import", try workspace.file("export.csv", export)])
        #expect(again.output.hasSuffix("no changes\n"), "\(again.output)")
    }

    @Test("A minified JSON catalog gives each product its own photo, and none to a product that names none")
    func minifiedPhotos() throws {
        let workspace = try CatalogImportTests.Workspace()
        try Self.write(try ImageProcessor.solidImage(width: 640, height: 480, format: .jpeg), to: workspace.media + "/chair.jpg")
        try Self.write(try ImageProcessor.solidImage(width: 400, height: 400, format: .png), to: workspace.media + "/table.png")
        let run = workspace.run(["catalog", "import", try workspace.file("minified.json", #"""
            [{"slug":"camp-chair","name":"Camp Chair","category":"Camping","price":"45.00","image":"chair.jpg"},{"slug":"camp-table","name":"Camp Table","category":"Camping","price":"65.00","image":"table.png"},{"slug":"camp-stool","name":"Camp Stool","category":"Camping","price":"25.00"}]
            """#)])
        #expect(run.status == 0, "\(run.report)")
        let storage = try workspace.open()
        defer { storage.close() }
        #expect(try storage.product("camp-chair").image?.fileName == "chair.jpg")
        #expect(try storage.product("camp-table").image?.fileName == "table.png")
        #expect(try storage.product("camp-stool").image == nil)
    }

    @Test("With the originals kept, importing the catalog's own export makes generated/ again (as the README's Backups say)")
    func thumbnailsMadeAgain() throws {
        let workspace = try CatalogImportTests.Workspace()
        try Self.write(try Self.jpegWithEXIF(width: 640, height: 480, artist: "A"), to: workspace.media + "/chair.jpg")
        let catalog = try workspace.file("chair.csv", "slug,name,category,price,image\ncamp-chair,Camp Chair,Camping,45.00,chair.jpg\n")
        #expect(workspace.run(["catalog", "import", catalog]).status == 0)
        let generated = CatalogImages.generatedDirectory(in: workspace.media)
        let made = try FileManager.default.contentsOfDirectory(atPath: generated).sorted()
        #expect(made.count == ProductImage.widths.count)
        try FileManager.default.removeItem(atPath: generated)

        let export = workspace.run(["catalog", "export"])
        let again = workspace.run(["catalog", "import", try workspace.file("export.csv", export.output)])
        #expect(again.status == 0, "\(again.report)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: generated).sorted() == made)
    }

    @Test("Thumbnails are served with a strong ETag, a year of immutable caching, and 304 when unchanged")
    func served() throws {
        let workspace = try CatalogImportTests.Workspace()
        try Self.write(try ImageProcessor.solidImage(width: 400, height: 400, format: .png), to: workspace.media + "/chair.png")
        let shop = try TestShop { $0.mediaPath = workspace.media }
        let run = OperatorRun(["catalog", "import", try workspace.file("chair.csv", """
            slug,name,category,price,image
            camp-chair,Camp Chair,Camping,45.00,chair.png
            """)], database: shop.directory.path + "/quickcart.sqlite", media: workspace.media)
        #expect(run.status == 0, "\(run.report)")
        let storage = try StoreLocation(database: shop.directory.path + "/quickcart.sqlite", keeping: shop.directory).open()
        let image = try #require(storage.liveCatalog.current.catalog.product(slug: "camp-chair")?.image)
        storage.close()

        let client = shop.browser()
        let path = MediaFiles.path(of: image, width: 320)
        let answer = try client.get(path)
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "image/webp")
        #expect(answer.header("Cache-Control") == "public, max-age=31536000, immutable")
        let etag = try #require(answer.header("ETag"))
        #expect(etag == "\"\(image.key)-320\"" && !etag.hasPrefix("W/"))
        #expect(answer.header("X-Content-Type-Options") == "nosniff")
        #expect(try ImageProcessor.header(of: answer.response.body).width == 320)
        let again = try client.get(path, headers: [("If-None-Match", etag)])
        #expect(again.status == 304 && again.response.body.isEmpty)
        #expect(again.header("Content-Length") == String(answer.response.body.count), "a 304's length is the 200's (RFC 9110 §8.6)")

        for missing in [
            "/media/\(image.key)-640.webp", "/media/\(image.key.uppercased())-320.webp", "/media/..%2Fquickcart.sqlite",
            "/media/\(String(repeating: "0", count: 64))-320.webp", "/media/chair.png",
        ] {
            #expect(try client.get(missing).status == 404, "\(missing)")
        }
    }

    @Test("Cards and cart rows show the photo with width, height, srcset and alt, lazy below the first four; the icon without one")
    func markup() throws {
        let workspace = try CatalogImportTests.Workspace()
        var lines = ["slug,name,category,price,image,featured"]
        for index in 1...6 {
            try Self.write(try ImageProcessor.solidImage(width: 400, height: 300, format: .jpeg, red: Double(index * 30)), to: workspace.media + "/p\(index).jpg")
            lines.append("thing-\(index),Thing \(index),Things,\(index).00,p\(index).jpg,true")
        }
        lines.append("plain,Plain Thing,Things,7.00,,true")
        let shop = try TestShop { $0.mediaPath = workspace.media }
        let run = OperatorRun(
            ["catalog", "import", try workspace.file("things.csv", lines.joined(separator: "\n"))],
            database: shop.directory.path + "/quickcart.sqlite", media: workspace.media
        )
        #expect(run.status == 0, "\(run.report)")
        let browser = shop.browser()
        let home = try ShopTests.LiveCatalogTests.eventually(browser, "/") { $0.productNames.count == 7 }
        let html = home.html
        let images = html.elements("img") { $0["class"] == "product__photo" }
        #expect(images.map { $0["alt"] } == (1...6).map { "Thing \($0)" })
        #expect(images.map { $0.has("loading") } == [false, false, false, false, true, true])
        #expect(images.allSatisfy { $0["loading"] == nil || $0["loading"] == "lazy" })
        let first = try #require(images.first)
        #expect(first["width"] == "160" && first["height"] == "120", "\(first)")
        #expect(first["sizes"] == "64px")
        let srcset = try #require(first["srcset"])
        let candidates = srcset.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(candidates.count == 2 && candidates[0].hasSuffix("-160.webp 160w") && candidates[1].hasSuffix("-320.webp 320w"), "\(srcset)")
        let src = try #require(first["src"])
        #expect(candidates[0].hasPrefix(src))
        let picture = try browser.get(src)
        #expect(picture.status == 200 && picture.header("Content-Type") == "image/webp")
        let plain = try #require(html.first("h2") { html.text(of: $0) == "Plain Thing" }.flatMap { html.enclosing("li", of: $0) })
        #expect(html.first("img", in: plain) == nil, "no photo, no img")
        #expect(html.first("span", in: plain) { $0["class"] == "product__icon" } != nil, "the category's line icon instead")

        for index in 1...6 {
            let id = try shop.productID(named: "Thing \(index)")
            #expect(try browser.post("/cart/items", form: [("product", id)]).status == 303)
        }
        let cart = try browser.get("/cart")
        let rows = cart.html.elements("img") { $0["class"] == "cart-item__photo" }
        #expect(rows.count == 6, "\(cart.summary)")
        #expect(rows.map { $0.has("loading") } == [false, false, false, false, true, true])
        #expect(rows.first?["alt"] == "Thing 1" && rows.first?["width"] == "160" && rows.first?["height"] == "120")
    }
}
