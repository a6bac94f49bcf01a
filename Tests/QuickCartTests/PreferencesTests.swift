import HTTPTesting
import Testing

extension ShopTests {
    /// Theme, tab order with Cart pinned, the sidebar and notifications: stored per session,
    /// changed by plain form posts.
    @Suite("Preferences")
    struct PreferencesTests {
        private func tabIDs(_ page: Page) -> [String] {
            page.tabLinks.compactMap { $0["data-tab"] }
        }

        private func rootAttribute(_ name: String, of page: Page) -> String? {
            page.html.first("html")?[name]
        }

        @Test("The theme override is stored per session and set on every page")
        func theme() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            #expect(rootAttribute("data-theme", of: try browser.get("/")) == "system")
            let answer = try browser.post("/profile/theme", form: [("theme", "dark")])
            #expect(answer.status == 303)
            for path in ["/", "/cart", "/search", "/profile"] {
                #expect(rootAttribute("data-theme", of: try browser.get(path)) == "dark", "\(path)")
            }
            #expect(rootAttribute("data-theme", of: try shop.browser().get("/")) == "system", "another session keeps its own theme")
            #expect(try browser.post("/profile/theme", form: [("theme", "purple")]).status == 400)
            #expect(rootAttribute("data-theme", of: try browser.get("/")) == "dark")
        }

        @Test("Move up and down reorder Home, Search and Profile everywhere; Cart stays third; Reset restores")
        func tabOrder() throws {
            let browser = try TestShop(inProcess: true).browser()
            let profile = try browser.get("/profile")
            #expect(tabIDs(profile) == ["home", "search", "cart", "profile"])
            #expect(profile.html.button(named: "Move Home up")?.has("disabled") == true)
            #expect(profile.html.button(named: "Move Cart up") == nil, "Cart cannot be moved")

            let moved = try browser.click("Move Profile up", on: profile)
            #expect(moved.status == 303)
            #expect(moved.location?.hasPrefix("/profile") == true)
            for path in ["/", "/cart", "/search", "/profile"] {
                #expect(tabIDs(try browser.get(path)) == ["home", "profile", "cart", "search"], "\(path)")
            }
            _ = try browser.click("Move Profile up", on: try browser.get("/profile"))
            #expect(tabIDs(try browser.get("/")) == ["profile", "home", "cart", "search"])
            _ = try browser.click("Reset", on: try browser.get("/profile"))
            #expect(tabIDs(try browser.get("/")) == ["home", "search", "cart", "profile"])
        }

        @Test("Drag and drop posts a whole order; a bad order is 400 and changes nothing", arguments: [
            ("search,profile,home", ["search", "profile", "cart", "home"], 303),
            ("home,cart,profile", ["home", "search", "cart", "profile"], 400),
            ("home,home,profile", ["home", "search", "cart", "profile"], 400),
            ("home,search", ["home", "search", "cart", "profile"], 400),
        ])
        func wholeOrder(order: String, expected: [String], status: Int) throws {
            let browser = try TestShop(inProcess: true).browser()
            #expect(try browser.post("/profile/tabs", form: [("order", order)]).status == status)
            #expect(tabIDs(try browser.get("/")) == expected)
        }

        @Test("The layout button switches to the sidebar and back, and comes back to the page")
        func sidebar() throws {
            let browser = try TestShop(inProcess: true).browser()
            let page = try browser.get("/search?q=tent")
            #expect(rootAttribute("data-layout", of: page) == "bar")
            let toggled = try browser.click("Show sidebar", on: page)
            #expect(toggled.status == 303)
            #expect(toggled.location == "/search?q=tent")
            let after = try browser.get("/cart")
            #expect(rootAttribute("data-layout", of: after) == "sidebar")
            // The button is named by what a press does next.
            #expect(after.html.button(named: "Show sidebar") == nil)
            _ = try browser.click("Show tab bar", on: after)
            #expect(rootAttribute("data-layout", of: try browser.get("/")) == "bar")
        }

        @Test("Notifications are on by default and switch off and on by form")
        func notifications() throws {
            let browser = try TestShop(inProcess: true).browser()
            let profile = try browser.get("/profile")
            #expect(rootAttribute("data-notifications", of: profile) == "on")
            #expect(profile.html.button(named: "Notifications") != nil || profile.text.contains("Notifications"))
            #expect(try browser.post("/profile/notifications", form: [("notifications", "off")]).status == 303)
            #expect(rootAttribute("data-notifications", of: try browser.get("/")) == "off")
            #expect(try browser.post("/profile/notifications", form: [("notifications", "maybe")]).status == 400)
            #expect(try browser.post("/profile/notifications", form: [("notifications", "on")]).status == 303)
            #expect(rootAttribute("data-notifications", of: try browser.get("/")) == "on")
        }

        @Test("A search is never echoed into a cookie; the Search tab returns to a stored session's newest search")
        func searchSetsNoPlaceCookie() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let search = try browser.search("tent")
            #expect(search.setCookies.allSatisfy { $0.name == Page.sessionCookieName }, "\(search.response.headers(named: "Set-Cookie"))")
            #expect(!search.response.headers(named: "Set-Cookie").contains { $0.contains("tent") })
            let searchTab = { (page: Page) in page.tabLinks.first { $0["data-tab"] == "search" }?["href"] }
            #expect(searchTab(try browser.get("/")) == "/search", "a session not stored keeps no searches")
            #expect(try browser.post("/profile/theme", form: [("theme", "dark")]).status == 303)
            _ = try browser.search("rain jacket")
            #expect(searchTab(try browser.get("/")) == "/search?q=rain%20jacket")
            #expect(searchTab(try browser.get("/search?q=rain%20jacket")) == "/search", "the current tab leads to its root")
            let forged = try shop.browser().get("/", headers: [("Cookie", "quickcart_search_place=https://evil.example/")])
            #expect(forged.tabLinks.first { $0["data-tab"] == "search" }?["href"] == "/search")
        }
    }
}
