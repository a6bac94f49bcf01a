import FoundationEssentials

/// Placed orders as `quickcart orders export` writes them: CSV with one row per order line
/// (the order's columns repeated), or JSON with one object per order holding its lines and
/// its history. The state columns come after the first ones, and the delivery's after those,
/// so readers of the earlier columns keep working.
enum OrderExport {
    static let csvHeader = "number,placed_at,order_total,order_items,line,slug,name,unit_price,quantity,line_total,"
        + "state,state_at,paid_at,shipped_at,delivered_at,cancelled_at,carrier,tracking_url,cancel_reason,"
        + "contact_name,email,phone,address_line1,address_line2,city,region,postal_code,country,"
        + "delivery_method,delivery_name,delivery_price,payment,payment_details,subtotal"

    /// `order` as CSV rows, one per line, without the header.
    static func csvRows(_ order: Order) -> [String] {
        order.lines.enumerated().map { index, line in
            ([
                order.number, placedAt(order), CatalogFile.priceText(order.total), String(order.itemCount), String(index + 1),
                line.productSlug ?? "", line.name, CatalogFile.priceText(line.unitPrice), String(line.quantity),
                CatalogFile.priceText(line.lineTotal),
            ] + stateColumns(order) + deliveryColumns(order)).map(CSV.field).joined(separator: ",")
        }
    }

    /// `order` as one JSON object on one line.
    static func jsonObject(_ order: Order) -> String {
        let lines = order.lines.map { line in
            "{\"slug\": \(line.productSlug.map(JSONText.quoted) ?? "null"), \"name\": \(JSONText.quoted(line.name)), "
                + "\"unitPrice\": \"\(CatalogFile.priceText(line.unitPrice))\", \"quantity\": \(line.quantity), "
                + "\"lineTotal\": \"\(CatalogFile.priceText(line.lineTotal))\"}"
        }
        return "{\"number\": \(JSONText.quoted(order.number)), \"placedAt\": \"\(placedAt(order))\", "
            + "\"total\": \"\(CatalogFile.priceText(order.total))\", \"itemCount\": \(order.itemCount), "
            + "\"lines\": [\(lines.joined(separator: ", "))], "
            + "\"state\": \"\(order.state.rawValue)\", \"stateAt\": \"\(time(order.history.last?.at ?? order.placedAt))\", "
            + "\"history\": [\(order.history.map(jsonObject).joined(separator: ", "))], "
            + "\"subtotal\": \"\(CatalogFile.priceText(order.subtotal))\", \"delivery\": \(order.delivery.map(jsonObject) ?? "null")}"
    }

    /// An order's delivery as JSON: `contact`, `address`, `method` and `payment`.
    static func jsonObject(_ delivery: OrderDelivery) -> String {
        let details = delivery.details
        func members(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { "\"\($0.0)\": \(JSONText.quoted($0.1))" }.joined(separator: ", ") + "}"
        }
        return "{\"contact\": " + members([("name", details.name), ("email", details.email), ("phone", details.phone)])
            + ", \"address\": " + members([
                ("line1", details.addressLine1), ("line2", details.addressLine2), ("city", details.city), ("region", details.region),
                ("postalCode", details.postalCode), ("country", details.country), ("countryName", details.countryName),
            ])
            + ", \"method\": " + members([("code", details.method), ("name", delivery.methodName), ("price", CatalogFile.priceText(delivery.price))])
            + ", \"payment\": " + members([("kind", delivery.payment.rawValue), ("details", delivery.paymentDetails), ("instructions", delivery.howToPay)])
            + "}"
    }

    /// The contact, address, delivery method and its price, payment, and the lines' subtotal;
    /// empty for an order placed before checkout asked (its subtotal is its total).
    static func deliveryColumns(_ order: Order) -> [String] {
        guard let delivery = order.delivery else {
            return Array(repeating: "", count: 14) + [CatalogFile.priceText(order.subtotal)]
        }
        let details = delivery.details
        return [
            details.name, details.email, details.phone, details.addressLine1, details.addressLine2, details.city, details.region,
            details.postalCode, details.country, details.method, delivery.methodName, CatalogFile.priceText(delivery.price),
            delivery.payment.rawValue, delivery.paymentDetails, CatalogFile.priceText(order.subtotal),
        ]
    }

    /// One move as JSON: state and time, and carrier, tracking link and reason when said.
    static func jsonObject(_ change: OrderStateChange) -> String {
        var fields = ["\"state\": \"\(change.state.rawValue)\"", "\"at\": \"\(time(change.at))\""]
        if let carrier = change.carrier { fields.append("\"carrier\": \(JSONText.quoted(carrier))") }
        if let tracking = change.trackingURL { fields.append("\"trackingURL\": \(JSONText.quoted(tracking))") }
        if let reason = change.reason { fields.append("\"reason\": \(JSONText.quoted(reason))") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The state, when it was reached, when each later state was (empty when never), and the
    /// last shipment's carrier and tracking link and the cancellation's reason.
    static func stateColumns(_ order: Order) -> [String] {
        let reached = { (state: OrderState) in order.history.last { $0.state == state }.map { time($0.at) } ?? "" }
        return [order.state.rawValue, time(order.history.last?.at ?? order.placedAt)]
            + [OrderState.paid, .shipped, .delivered, .cancelled].map(reached)
            + [order.shipment?.carrier ?? "", order.shipment?.trackingURL ?? "", order.history.last { $0.state == .cancelled }?.reason ?? ""]
    }

    /// When the order was placed, in UTC, e.g. `2026-11-30T14:05:09Z`.
    static func placedAt(_ order: Order) -> String {
        time(order.placedAt)
    }

    /// `seconds` since 1970 in UTC, e.g. `2026-11-30T14:05:09Z`.
    static func time(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }

    /// `2026-11-30` (midnight UTC) or a full ISO 8601 time such as `2026-11-30T14:00:00Z`, as
    /// seconds since 1970; `nil` when it is neither.
    static func parseSince(_ text: String) -> Int64? {
        let full = text.count == 10 ? text + "T00:00:00Z" : text
        guard namesRealTime(full), let date = try? Date(full, strategy: .iso8601) else { return nil }
        return Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Whether the date and time of day that `text` (`2026-11-30T14:00:00…`) starts with exist:
    /// Foundation's ISO 8601 reading rolls `2026-02-30` over to 2 March and `T25:00` to the next day.
    private static func namesRealTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy(isDigit) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month) else { return false }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day), let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60 else { return false }
        guard number(17..<19).map({ $0 < 60 }) ?? true else { return false }
        // An offset after the time (and any fraction of a second): `+05:30` or `-0800`, at most 23:59.
        guard let sign = bytes.lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }), sign > 10 else { return true }
        let offset = bytes[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
        guard offset.count == 4, offset.allSatisfy(isDigit), let hhmm = Int(String(decoding: offset, as: UTF8.self)) else { return false }
        return hhmm / 100 < 24 && hhmm % 100 < 60
    }
}
