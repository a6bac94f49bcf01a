import Foundation
import MicroHTTP
import Mustache

/// The Profile tab: account details, a display name to change, and past orders.
struct ProfileController: Sendable {
    /// Display names are at most 40 characters and 160 UTF-8 bytes (``TextLimit``).
    static let nameLimit = TextLimit(characters: 40, bytes: 160)

    let orders: any OrderStore
    let sessions: any SessionStore
    /// Ends sessions (sign out).
    let sessionManager: SessionManager
    let pages: PageRenderer

    func show(_ request: ShopRequest) throws -> Response {
        let session = request.session
        let orders = try orders.orders(for: session)
        let count = request.cart.itemCount
        let confirmed = request.http.query["order"].flatMap(Int64.init).flatMap { id in orders.first { $0.id == id } }
        var content: MustacheObject = [
            "displayName": .string(session.displayName),
            "memberSince": .string(Self.date(session.createdAt)),
            "memberSinceISO": .string(Self.isoDate(session.createdAt)),
            "orders": .array(orders.map(Self.viewModel)),
            "hasOrders": .bool(!orders.isEmpty),
            "csrf": .string(session.csrfToken),
            "themes": .array(Preferences.Theme.allCases.map { theme in
                .object([
                    "value": .string(theme.rawValue),
                    "label": .string(theme.rawValue.capitalizedFirst),
                    "selected": .bool(session.preferences.theme == theme),
                ])
            }),
            "tabOrder": tabOrderViewModel(session.preferences.tabOrder),
            "isCustomOrder": .bool(!session.preferences.tabOrder.isEmpty),
            "notificationsOn": .string(session.preferences.notifications ? "true" : "false"),
            "nextNotifications": .string(session.preferences.notifications ? "off" : "on"),
        ]
        if let confirmed {
            content["confirmation"] = .object([
                "number": .string(String(confirmed.id)),
                "total": .string(confirmed.total.formatted),
                "itemCountText": .string(Badge.itemCountText(confirmed.itemCount)),
            ])
        }
        return pages.render(
            .init(template: "profile", title: "Profile", tab: .profile, cartCount: count, content: .object(content), returnTo: "/profile"),
            session: session, places: request.places
        )
    }

    /// `POST /profile/name` with `display_name`.
    func rename(_ request: ShopRequest) throws -> Response {
        let name = (request.http.form["display_name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw HTTPError(.badRequest, "Please enter a display name.")
        }
        guard Self.nameLimit.admits(name) else {
            throw HTTPError(.badRequest, "Display names are limited to \(Self.nameLimit.characters) characters.")
        }
        guard !name.containsControlCharacter else {
            throw HTTPError(.badRequest, "The display name contains control characters.")
        }
        try sessions.setDisplayName(name, for: request.session, at: request.now)
        return .redirect(to: "/profile")
    }

    /// `POST /profile/sign-out`: this browser gets a new, empty session (a new cookie); what
    /// was stored of the old one is deleted, and its cookie reaches none of it again.
    func signOut(_ request: ShopRequest) throws -> Response {
        var response = Response.redirect(to: "/profile")
        response.setCookie(try sessionManager.endSession(request.session, at: request.now))
        return response
    }

    /// The tabs in the session's order, each movable one with what its Move buttons may do.
    private func tabOrderViewModel(_ order: [String]) -> MustacheValue {
        let tabs = pages.tabBar.arranged(by: order)
        let movable = tabs.filter { $0.role != .prominent }
        return .array(tabs.map { tab in
            let position = movable.firstIndex { $0.id == tab.id }
            return .object([
                "id": .string(tab.id.rawValue),
                "title": .string(tab.title),
                "icon": .string(tab.iconMarkup),
                "pinned": .bool(position == nil),
                "canMoveUp": .bool((position ?? 0) > 0),
                "canMoveDown": .bool(position.map { $0 < movable.count - 1 } ?? false),
            ])
        })
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
    private static let dayStyle = Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: TimeZone(identifier: "UTC")!)
        .locale(Locale(identifier: "en_GB"))

    private static func date(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(dayStyle)
    }

    private static func isoDate(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
