/// How the API writes the shop's models as JSON (the OpenAPI document's schemas): ids as
/// strings, money as `{"amount": "24.50", "currency": "USD"}`, times as ISO 8601 in UTC.
enum APIModels {
    /// The currency of every amount: the shop sells in US dollars.
    static let currency = "USD"

    static func money(_ amount: Money, into json: inout JSONWriter) {
        json.object { json in
            json.field("amount") { $0.string(decimal(amount)) }
            json.field("currency") { $0.string(currency) }
        }
    }

    /// `24.50`, `1200.00`, `-3.05`: the exact amount with two decimals.
    static func decimal(_ amount: Money) -> String {
        let magnitude = amount.cents.magnitude
        let cents = magnitude % 100
        return (amount.cents < 0 ? "-" : "") + String(magnitude / 100) + (cents < 10 ? ".0" : ".") + String(cents)
    }

    /// What ``decimal(_:)`` writes for an amount not below zero, read back: `349.00` is 34,900
    /// cents; digits, a point and two digits, or `nil` (also past any price).
    static func money(amount: String) -> Money? {
        let parts = amount.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, (1...12).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let units = Int64(Substring(parts[0])), let hundredths = Int64(Substring(parts[1]))
        else { return nil }
        return Money(cents: units * 100 + hundredths)
    }

    static func product(_ product: Product, into json: inout JSONWriter) {
        json.object { json in
            json.field("id") { $0.string(String(product.id)) }
            json.field("slug") { $0.string(product.slug) }
            json.field("name") { $0.string(product.name) }
            json.field("summary") { $0.string(product.summary) }
            json.field("category") { $0.string(product.category) }
            json.field("price") { money(product.price, into: &$0) }
            json.field("featured") { $0.bool(product.isFeatured) }
            json.field("available") { $0.bool(product.isActive) }
            json.field("image") { json in
                guard let image = product.image else { return json.null() }
                let width = ProductImage.widths.last ?? 320
                let size = image.thumbnailSize(width: width)
                json.object { json in
                    json.field("url") { $0.string("/media/" + image.thumbnailName(width: width)) }
                    json.field("width") { $0.number(size.width) }
                    json.field("height") { $0.number(size.height) }
                }
            }
        }
    }

    static func products(_ products: [Product], into json: inout JSONWriter) {
        json.array { json in
            for item in products { product(item, into: &json) }
        }
    }

    /// The cart: `count` is the badge's number (lines still for sale), `version` its ETag.
    static func cart(_ cart: Cart, version: Int64, into json: inout JSONWriter) {
        json.object { json in
            json.field("version") { $0.string(String(version)) }
            json.field("count") { $0.number(cart.itemCount) }
            json.field("lines") { json in
                json.array { json in
                    for item in cart.items {
                        json.object { json in
                            json.field("product") { product(item.product, into: &$0) }
                            json.field("quantity") { $0.number(item.quantity) }
                            json.field("lineTotal") { money(item.lineTotal, into: &$0) }
                        }
                    }
                }
            }
            json.field("subtotal") { money(cart.subtotal, into: &$0) }
        }
    }

    /// The cart alone, as bytes (a `stale-cart` problem carries it).
    static func cartBytes(_ cart: Cart, version: Int64) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + cart.items.count * 400)
        Self.cart(cart, version: version, into: &json)
        return json.bytes
    }

    /// An order; `catalog` gives each line's product id, while the product is in it.
    static func order(_ order: Order, catalog: Catalog, into json: inout JSONWriter) {
        json.object { json in
            json.field("id") { $0.string(order.number) }
            json.field("placedAt") { $0.string(OrderExport.time(order.placedAt)) }
            json.field("state") { $0.string(order.state.rawValue) }
            json.field("history") { json in
                json.array { json in
                    for change in order.history {
                        json.object { json in
                            json.field("state") { $0.string(change.state.rawValue) }
                            json.field("at") { $0.string(OrderExport.time(change.at)) }
                            if let tracking = change.trackingURL { json.field("tracking") { $0.string(tracking) } }
                            if let carrier = change.carrier { json.field("carrier") { $0.string(carrier) } }
                            if let reason = change.reason { json.field("reason") { $0.string(reason) } }
                        }
                    }
                }
            }
            json.field("lines") { json in
                json.array { json in
                    for line in order.lines {
                        json.object { json in
                            json.field("productId") { json in
                                guard let id = line.productSlug.flatMap(catalog.product(slug:))?.id else { return json.null() }
                                json.string(String(id))
                            }
                            json.field("name") { $0.string(line.name) }
                            json.field("unitPrice") { money(line.unitPrice, into: &$0) }
                            json.field("quantity") { $0.number(line.quantity) }
                            json.field("lineTotal") { money(line.lineTotal, into: &$0) }
                        }
                    }
                }
            }
            json.field("subtotal") { money(order.subtotal, into: &$0) }
            if let delivery = order.delivery {
                json.field("delivery") { APIDelivery.details(delivery.details, into: &$0) }
                json.field("deliveryMethod") { APIDelivery.method(of: delivery, into: &$0) }
            }
            json.field("total") { money(order.total, into: &$0) }
        }
    }
}
