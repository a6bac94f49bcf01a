import Foundation
import HTTPTesting
import QuickCart
import Testing

extension ShopTests {
    /// The installable app's server side: the manifest, its icons, the service worker's
    /// script and list, the offline page, and the release that ties them together.
    @Suite("Installable app") struct InstallableTests {
        @Test("Every page links the manifest and names the release", arguments: ["/", "/search", "/cart", "/profile", "/nowhere"])
        func pagesLinkTheManifest(path: String) throws {
            let page = try TestShop(inProcess: true).browser().get(path)
            let html = page.html
            let links = html.elements("link") { $0["rel"] == "manifest" }
            #expect(links.map { $0["href"] ?? "" } == ["/manifest.webmanifest"], "manifest links on \(path): \(links)")
            let root = try #require(html.first("html"))
            let release = try #require(root["data-release"], "no data-release on \(path)")
            #expect(release.count == 16 && release.allSatisfy(\.isHexDigit), "release “\(release)”")
            let colours = html.elements("meta") { $0["name"] == "theme-color" }.map { $0["content"] ?? "" }
            #expect(colours == ["#f2f2f7"], "the light theme's background on \(path)")
        }

        @Test("With the dark theme chosen, the browser's bar is the dark background")
        func darkThemeColour() throws {
            let browser = try TestShop(inProcess: true).browser()
            _ = try browser.post("/profile/theme", form: [("theme", "dark")])
            let colours = try browser.get("/cart").html.elements("meta") { $0["name"] == "theme-color" }.map { $0["content"] ?? "" }
            #expect(colours == ["#000000"])
        }

        @Test("The manifest is application/manifest+json, standalone, with 192 and 512 px icons, maskable too, and shortcuts")
        func manifest() throws {
            let shop = try TestShop(inProcess: true)
            let answer = try shop.browser().get("/manifest.webmanifest")
            try #require(answer.status == 200, "\(answer.summary)")
            #expect(answer.header("Content-Type") == "application/manifest+json")
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(answer.response.body)) as? [String: Any])
            #expect(manifest["name"] as? String == "QuickCart")
            #expect(manifest["short_name"] as? String == "QuickCart")
            #expect((manifest["description"] as? String)?.isEmpty == false)
            #expect(manifest["start_url"] as? String == "/")
            #expect(manifest["scope"] as? String == "/")
            #expect(manifest["display"] as? String == "standalone")
            #expect(manifest["theme_color"] as? String == "#f2f2f7")
            #expect(manifest["background_color"] as? String == "#f2f2f7")

            let icons = try #require(manifest["icons"] as? [[String: String]])
            let kinds = Set(icons.map { "\($0["sizes"] ?? "") \($0["purpose"] ?? "")" })
            #expect(kinds == ["192x192 any", "512x512 any", "192x192 maskable", "512x512 maskable"], "icons: \(icons)")
            let shortcuts = try #require(manifest["shortcuts"] as? [[String: Any]])
            #expect(shortcuts.map { $0["name"] as? String } == ["Cart", "Search"])
            #expect(shortcuts.map { $0["url"] as? String } == ["/cart", "/search"])
            let shortcutIcons = shortcuts.flatMap { ($0["icons"] as? [[String: String]]) ?? [] }

            // Each icon is a PNG of the size it claims, at a versioned address.
            for icon in icons + shortcutIcons {
                let source = try #require(icon["src"])
                #expect(source.contains("?v="), "\(source) should be versioned")
                let image = try shop.browser().get(source)
                try #require(image.status == 200, "\(image.summary)")
                #expect(image.header("Content-Type") == "image/png")
                let size = try #require(Self.pngSize(image.response.body), "\(source) is not a PNG")
                #expect("\(size.width)x\(size.height)" == icon["sizes"], "\(source) is \(size.width)×\(size.height)")
            }
        }

        @Test("The manifest and the offline page answer 304 to their own entity tag", arguments: ["/manifest.webmanifest", "/offline"])
        func revalidation(path: String) throws {
            let shop = try TestShop(inProcess: true)
            let first = try shop.browser().get(path)
            #expect(first.header("Cache-Control") == "no-cache")
            let tag = try #require(first.header("ETag"))
            let again = try shop.browser().get(path, headers: [("If-None-Match", tag)])
            #expect(again.status == 304, "\(again.summary)")
            #expect(again.response.body.isEmpty)
            #expect(again.header("Content-Length") == String(first.response.body.count), "a 304's length is the 200's (RFC 9110 §8.6)")
        }

        @Test("The worker is Public/sw.js, served at /sw.js, JavaScript, always revalidated")
        func workerScript() throws {
            let shop = try TestShop(inProcess: true)
            let page = try shop.browser().get("/")
            let release = try #require(page.html.first("html")?["data-release"])
            let answer = try shop.browser().get("/sw.js?v=" + release)
            try #require(answer.status == 200, "\(answer.summary)")
            #expect(answer.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(answer.header("Cache-Control") == "no-cache")
            // The same bytes as the static file, as the server serves Public/ (scripts without their comments).
            let file = try shop.browser().get("/static/sw.js")
            #expect(!answer.response.body.isEmpty && answer.response.body == file.response.body)
            #expect(answer.text.contains("addEventListener('fetch'"))
        }

        @Test("The worker's list is this release's: versioned files that answer with that version, and the offline page")
        func assetList() throws {
            let shop = try TestShop(inProcess: true)
            let release = try #require(try shop.browser().get("/").html.first("html")?["data-release"])
            let answer = try shop.browser().get("/sw-assets.json")
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.header("X-QuickCart-Release") == release)
            let list = try #require(try JSONSerialization.jsonObject(with: Data(answer.response.body)) as? [String: Any])
            #expect(list["release"] as? String == release)
            #expect(list["offline"] as? String == "/offline")
            let precache = try #require(list["precache"] as? [String])
            let page = try shop.browser().get("/").html
            let stylesheet = try #require(page.first("link") { $0["rel"] == "stylesheet" }?["href"])
            let script = try #require(page.first("script")?["src"])
            #expect(precache.contains(stylesheet) && precache.contains(script), "\(precache) should hold \(stylesheet) and \(script)")
            #expect(precache.contains { $0.hasPrefix("/static/icons/app/maskable-512.png?v=") })
            for address in precache {
                let version = try #require(address.split(separator: "=").last.map(String.init))
                let file = try shop.browser().get(address)
                #expect(file.status == 200, "\(file.summary)")
                #expect(file.header("ETag")?.hasPrefix("\"" + version) == true, "\(address): ETag \(file.header("ETag") ?? "none")")
            }
        }

        @Test("The offline page has the tab bar, no session and no count, and names its release")
        func offlinePage() throws {
            let shop = try TestShop(inProcess: true)
            let release = try #require(try shop.browser().get("/").html.first("html")?["data-release"])
            let browser = shop.browser()
            let page = try browser.get("/offline")
            try #require(page.status == 200, "\(page.summary)")
            #expect(page.header("X-QuickCart-Release") == release)
            #expect(page.setCookies.isEmpty, "the offline page must set no cookie: \(page.setCookies)")
            #expect(page.tabBars.count == 1)
            #expect(page.tabLinks.map { $0["href"] ?? "" } == ["/", "/search", "/cart", "/profile"])
            #expect(page.tabLinks.allSatisfy { $0["aria-current"] == nil }, "no tab is current offline")
            let cart = try #require(page.tabLinks.first { $0["href"] == "/cart" })
            #expect(page.html.accessibleName(of: cart) == "Cart, count not known offline")
            #expect(page.badge?.isHidden == true, "the badge shows no count the server does not know")
            #expect(page.html.first("body")?["data-page"] == "offline")
            #expect(page.html.first("a") { $0["data-retry"] != nil }.map { page.html.text(of: $0) } == "Try again")
            #expect(page.html.first("form") == nil, "nothing to post offline")
        }

        @Test("A changed file of Public/ is a new release, and the page and the list follow it")
        func releaseFollowsTheFiles() throws {
            let copy = try TemporaryDirectory()
            for folder in ["Views", "Public"] {
                try FileManager.default.copyItem(atPath: TestShop.repositoryRoot + "/" + folder, toPath: copy.path + "/" + folder)
            }
            let before = try TestShop { $0.resourcesPath = copy.path }
            let first = try #require(try before.browser().get("/").html.first("html")?["data-release"])
            before.stop()
            let css = copy.path + "/Public/css/app.css"
            try (try String(contentsOfFile: css, encoding: .utf8) + "\n/* a release */\n").write(toFile: css, atomically: true, encoding: .utf8)
            let after = try TestShop { $0.resourcesPath = copy.path }
            let second = try #require(try after.browser().get("/").html.first("html")?["data-release"])
            #expect(first != second, "a changed style sheet must change the release")
            let list = try after.browser().get("/sw-assets.json")
            #expect(list.header("X-QuickCart-Release") == second)
        }

        @Test("The shop's own name is in every title, the header and the manifest, escaped, and makes a release of its own")
        func shopName() throws {
            let standard = try TestShop(inProcess: true)
            let standardRelease = try standard.browser().get("/").html.first("html")?["data-release"]
            let shop = try TestShop { $0.shop = ShopIdentity(name: "Trail & <Co>", shortName: "Trail") }
            for (path, title) in [("/", "Home"), ("/cart", "Cart"), ("/offline", "Offline"), ("/nowhere", "Page not found")] {
                let page = try shop.browser().get(path)
                #expect(page.text.contains("<title>\(title) · Trail &amp; &lt;Co&gt;</title>"), "title of \(path)")
                let brand = try #require(page.html.first("a") { $0["class"] == "app-header__brand" })
                #expect(page.html.text(of: brand) == "Trail & <Co>", "header of \(path)")
                #expect(!page.text.contains("QuickCart"), "\(path) still names QuickCart")
                let appTitle = page.html.first("meta") { $0["name"] == "apple-mobile-web-app-title" }
                #expect(appTitle?["content"] == "Trail")
                #expect(page.html.first("html")?["data-release"] != standardRelease, "a new name is a new release (\(path))")
            }
            let manifest = try #require(
                try JSONSerialization.jsonObject(with: Data(try shop.browser().get("/manifest.webmanifest").response.body)) as? [String: Any]
            )
            #expect(manifest["name"] as? String == "Trail & <Co>")
            #expect(manifest["short_name"] as? String == "Trail")
        }

        /// Width and height from a PNG's IHDR chunk.
        static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
            guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
            func number(at index: Int) -> Int { bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (number(at: 16), number(at: 20))
        }
    }
}
