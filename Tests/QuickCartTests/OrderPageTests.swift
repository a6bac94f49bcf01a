import HTTPTesting
@testable import QuickCart
import Testing

extension ShopTests {
    /// `/orders/ID`: the owning shopper's order with its state, lines, total, history and
    /// tracking link; Profile lists each order's state and links to it; anyone else gets 404.
    @Suite("Order page") struct OrderPageTests {
        /// Checks out the browser's cart and returns the order's number.
        static func checkOut(_ browser: Browser) throws -> String {
            let answer = try browser.placeOrder()
            let location = try #require(answer.location)
            return String(location.dropFirst("/profile?order=".count).prefix { $0.isNumber })
        }

        @Test("The shopper's order page shows state, lines, total, the history with times and the tracking link; Profile shows the state")
        func ownersPage() throws {
            let shop = try TestShop(inProcess: true)
            let browser = shop.browser()
            let number = try Self.checkOut(browser)
            let database = shop.directory.path + "/quickcart.sqlite"
            var page = try browser.get("/orders/\(number)")
            try #require(page.status == 200, "\(page.summary)")
            #expect(page.html.text(of: try #require(page.html.first("h1"))) == "Order #\(number)")
            #expect(page.text.contains("Placed (awaiting payment)"))
            #expect(page.text.contains("1 × Trail Running Shoes") && page.text.contains("$177.00"))
            let profile = try browser.get("/profile")
            let state = try #require(profile.html.first { $0["data-order"] == number })
            #expect(profile.html.text(of: state).contains("Placed (awaiting payment)"))
            #expect(profile.html.first("a", in: state)?["href"] == "/orders/\(number)")

            for arguments in [["paid"], ["shipped", "--tracking", "https://track.example/QC?id=\(number)&x=<1>", "--carrier", "Nord & Co"]] {
                let run = OperatorRun(["orders", "mark", number] + arguments, database: database)
                #expect(run.status == (arguments.count > 1 ? 2 : 0), "\(run.report)")
            }
            #expect(OperatorRun(["orders", "mark", number, "shipped", "--tracking", "https://track.example/QC?id=\(number)&x=1", "--carrier", "Nord & <Co>"], database: database).status == 0)
            page = try browser.get("/orders/\(number)")
            let status = try #require(page.html.first { $0["data-order"] == number })
            #expect(status["data-order-state"] == "shipped")
            let link = try #require(page.html.first("a") { $0["href"]?.hasPrefix("https://track.example/") == true })
            #expect(link["href"] == "https://track.example/QC?id=\(number)&x=1", "the link is the operator's, escaped into the attribute")
            #expect(page.text.contains("&amp;x=1") && !page.text.contains("<Co>") && page.text.contains("Nord &amp; &lt;Co&gt;"))
            let history = page.html.elements("li", in: page.html.first("ol") { $0["class"] == "order-history" }).map { page.html.text(of: $0) }
            #expect(history.count == 3, "\(history)")
            #expect(history.first?.hasPrefix("Shipped") == true && history.last?.hasPrefix("Placed (awaiting payment)") == true)
            #expect(page.html.elements("time").allSatisfy { $0["datetime"]?.hasSuffix("Z") == true }, "each move has its time")
            #expect(try browser.get("/profile").html.first { $0["data-order"] == number }?["data-order-state"] == "shipped")
        }

        /// The confirmation Place order leads to, as a reload of it reads: its heading and words.
        static func confirmation(_ browser: Browser, _ number: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (title: String, text: String) {
            let page = try browser.get("/profile?order=\(number)")
            let section = try #require(page.html.first { $0["id"] == "order-confirmation" }, "no confirmation on \(page.summary)", sourceLocation: sourceLocation)
            #expect(section["data-order"] == number, sourceLocation: sourceLocation)
            let title = page.html.first("h1", in: section).map { page.html.text(of: $0) } ?? ""
            return (title, page.html.text(of: section).split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }

        @Test("The confirmation says where the order is after each move: no payment asked for once it is paid or cancelled, nor “is placed”")
        func confirmationFollowsTheOrder() throws {
            let shop = try TestShop(inProcess: true)
            let database = shop.directory.path + "/quickcart.sqlite"
            let mark = { (number: String, arguments: [String]) in
                let run = OperatorRun(["orders", "mark", number] + arguments, database: database)
                #expect(run.status == 0, "\(arguments): \(run.report)")
            }
            let payment = "Awaiting payment: nothing has been charged."
            let transfer = "Pay by bank transfer once the order is placed"

            let paying = shop.browser()
            let number = try Self.checkOut(paying)
            var shown = try Self.confirmation(paying, number)
            #expect(shown.title == "Thank you! Order #\(number) is placed.")
            #expect(shown.text.contains(payment) && shown.text.contains(transfer), "\(shown.text)")
            let moves: [([String], String, String)] = [
                (["paid"], "Thank you! Order #\(number) is paid.", "Paid since"),
                (["shipped", "--carrier", "Posten"], "Thank you! Order #\(number) is on its way.", "Shipped since"),
                (["delivered"], "Thank you! Order #\(number) is delivered.", "Delivered since"),
            ]
            for (arguments, title, state) in moves {
                mark(number, arguments)
                shown = try Self.confirmation(paying, number)
                #expect(shown.title == title, "after \(arguments): \(shown.title)")
                #expect(shown.text.contains(state) && shown.text.contains("$177.00"), "after \(arguments): \(shown.text)")
                #expect(!shown.text.contains("is placed") && !shown.text.contains(payment) && !shown.text.contains(transfer), "after \(arguments): \(shown.text)")
            }

            let cancelling = shop.browser()
            let review = try cancelling.review()
            let first = try cancelling.click("Place order", on: review)
            let cancelled = String(try #require(first.location).dropFirst("/profile?order=".count).prefix { $0.isNumber })
            mark(cancelled, ["cancelled", "--reason", "Out of stock, refunded"])
            // Place order pressed again (a retry) lands on the same confirmation, which says so too.
            #expect(try cancelling.click("Place order", on: review).location == first.location)
            shown = try Self.confirmation(cancelling, cancelled)
            #expect(shown.title == "Order #\(cancelled) is cancelled.")
            #expect(shown.text.contains("Cancelled since") && shown.text.contains("nothing to pay") && shown.text.contains("Reason: Out of stock, refunded"), "\(shown.text)")
            #expect(!shown.text.contains(payment) && !shown.text.contains(transfer) && !shown.text.contains("Thank you"), "\(shown.text)")
            // Cancelled once paid: there was something to pay, and the shop gives it back.
            let refunding = shop.browser()
            let refunded = try Self.checkOut(refunding)
            mark(refunded, ["paid"])
            mark(refunded, ["cancelled"])
            let refundedShown = try Self.confirmation(refunding, refunded)
            #expect(refundedShown.text.contains("the shop refunds what you paid for it") && !refundedShown.text.contains("nothing to pay"), "\(refundedShown.text)")

            // Paid on delivery: shipped unpaid, the carrier still collects, and both pages say how.
            let courier = shop.browser()
            #expect(try courier.postDelivery(["method": "express"]).status == 303)
            let placed = try courier.click("Place order", on: try courier.get("/checkout/review"))
            let onDelivery = String(try #require(placed.location).dropFirst("/profile?order=".count).prefix { $0.isNumber })
            mark(onDelivery, ["shipped"])
            shown = try Self.confirmation(courier, onDelivery)
            #expect(shown.title == "Thank you! Order #\(onDelivery) is on its way.")
            #expect(shown.text.contains(payment) && shown.text.contains("Pay when the order is delivered."), "\(shown.text)")
            #expect(try courier.get("/orders/\(onDelivery)").text.contains("Pay when the order is delivered."))
            mark(onDelivery, ["delivered"])
            #expect(!(try Self.confirmation(courier, onDelivery).text.contains(payment)))
            #expect(!(try courier.get("/orders/\(onDelivery)").text.contains("Pay when the order is delivered.")))
        }

        @Test("Another shopper, a new visitor and a number never used all get the same 404; nothing tells them the order exists")
        func othersGet404() throws {
            let shop = try TestShop(inProcess: true)
            let owner = shop.browser()
            let number = try Self.checkOut(owner)
            let stranger = shop.browser()
            _ = try stranger.get("/")
            #expect(try stranger.post("/cart/items", form: [("product", "3")]).status == 303, "a stored shopper of its own")
            let theirs = try stranger.get("/orders/\(number)")
            let none = try stranger.get("/orders/\(Int(number)! + 1000)")
            #expect(theirs.status == 404 && none.status == 404)
            #expect(theirs.text == none.text, "an order in use reads exactly as one that is not")
            #expect(!theirs.text.contains("Trail Running Shoes"))
            #expect(try shop.browser().get("/orders/\(number)").status == 404, "a new visitor")
            // An order's address has one spelling: a leading zero or a sign is no alias.
            for bad in ["abc", "-1", "1e3", "99999999999999999999999", "0\(number)", "+\(number)"] {
                #expect(try owner.get("/orders/\(bad)").status == 404, "/orders/\(bad)")
            }
            #expect(try owner.get("/orders/\(number)").status == 200)
        }
    }
}
