import Foundation
import MicroHTTP
import Mustache

/// The Profile tab: account details, a display name to change, and past orders.
struct ProfileController: Sendable {
    static let maximumNameLength = 40

    let carts: CartStore
    let sessions: SessionStore
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let session = request.session
        let orders = try carts.orders(for: session)
        let count = try carts.itemCount(for: session)
        let confirmed = request.http.query["order"].flatMap(Int64.init).flatMap { id in orders.first { $0.id == id } }
        var content: [String: MustacheValue] = [
            "displayName": .string(session.displayName),
            "memberSince": .string(Self.date(session.createdAt)),
            "memberSinceISO": .string(Self.isoDate(session.createdAt)),
            "orders": .array(orders.map(Self.viewModel)),
            "hasOrders": .bool(!orders.isEmpty),
            "csrf": .string(session.csrfToken),
        ]
        if let confirmed {
            content["confirmation"] = .object([
                "number": .string(String(confirmed.id)),
                "total": .string(confirmed.total.formatted),
                "itemCountText": .string(Badge.itemCountText(confirmed.itemCount).capitalizedFirst),
            ])
        }
        return pages.render(.init(template: "profile", title: "Profile", tab: .profile, cartCount: count, content: .object(content)))
    }

    /// `POST /profile/name` with `display_name`.
    func rename(_ request: ShopRequest) throws -> Response {
        let name = (request.http.form["display_name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw HTTPError(.badRequest, "Please enter a display name.")
        }
        guard name.count <= Self.maximumNameLength else {
            throw HTTPError(.badRequest, "Display names are limited to \(Self.maximumNameLength) characters.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw HTTPError(.badRequest, "The display name contains control characters.")
        }
        try sessions.setDisplayName(name, for: request.session, at: request.now)
        return .redirect(to: "/profile")
    }

    private static func viewModel(_ order: Order) -> MustacheValue {
        .object([
            "number": .string(String(order.id)),
            "placedAt": .string(date(order.placedAt)),
            "placedAtISO": .string(isoDate(order.placedAt)),
            "total": .string(order.total.formatted),
            "lines": .array(order.lines.map { line in
                .object([
                    "name": .string(line.name),
                    "quantity": .int(line.quantity),
                    "lineTotal": .string(line.lineTotal.formatted),
                ])
            }),
        ])
    }

    /// "30 Nov 2026", in UTC: the server does not know the shopper's zone.
    private static func date(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds))
            .formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: TimeZone(identifier: "UTC")!).locale(Locale(identifier: "en_GB")))
    }

    private static func isoDate(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
