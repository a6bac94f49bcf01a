import FoundationEssentials
import MicroHTTP

extension ProfileController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let profile = ProfileController(
            orders: shop.storage.orders, sessions: shop.storage.sessions, deliveryDetails: shop.storage.deliveryDetails,
            deliveryMethods: shop.storage.deliveryMethods, sessionManager: shop.sessionManager,
            page: try shop.pages.page(ProfileView.self, tab: tab), notices: shop.pages.notices
        )
        routes.get(tab.path, use: profile.show)
        routes.post(tab.path("/name"), use: profile.rename)
    }

    private static let tab = TabBar.TabID.profile
}

/// The Profile tab: account details, a display name to change, and past orders.
struct ProfileController: Sendable {
    /// Display names are at most 40 characters and 160 UTF-8 bytes (``TextLimit``).
    static let nameLimit = TextLimit(characters: 40, bytes: 160)

    let orders: any OrderStore
    let sessions: any SessionStore
    let deliveryDetails: any DeliveryDetailsStore
    let deliveryMethods: any DeliveryMethodStore
    /// Names each device in the list by a handle its id cannot be read back from.
    let sessionManager: SessionManager
    let page: ShopPage<ProfileView>
    /// Signs the notices its answers leave.
    let notices: NoticeCookies

    func show(_ request: ShopRequest) throws -> Response {
        page.render(try profile(request), title: "Profile", returnTo: Self.tab.path, for: request)
    }

    /// The page's content; `typedName` and `nameProblem` are a refused name as typed and why.
    private func profile(_ request: ShopRequest, typedName: String? = nil, nameProblem: String? = nil) throws -> ProfileView {
        let session = request.session
        let orders = try orders.orders(for: session)
        let confirmed = request.http.query["order"].flatMap(Int64.init).flatMap { id in orders.first { $0.id == id } }
        return ProfileView(
            displayName: session.displayName,
            memberSince: Self.date(session.createdAt),
            memberSinceISO: Self.isoDate(session.createdAt),
            orders: orders.map { OrderView(order: $0, placedAt: Self.date($0.placedAt), placedAtISO: Self.isoDate($0.placedAt)) },
            themes: Preferences.Theme.allCases.map { ThemeChoiceView(theme: $0, selected: session.preferences.theme == $0) },
            tabOrder: tabOrder(session.preferences.tabOrder),
            isCustomOrder: !session.preferences.tabOrder.isEmpty,
            notificationsOn: session.preferences.notifications,
            confirmation: confirmed.map(OrderConfirmationView.init),
            devices: try devices(of: session),
            savedDelivery: try savedDelivery(of: session),
            typedName: typedName,
            nameProblem: nameProblem
        )
    }

    /// The saved delivery details, with their method's name while the shop offers it.
    private func savedDelivery(of session: Session) throws -> SavedDeliveryView? {
        guard let saved = try deliveryDetails.deliveryDetails(for: session) else { return nil }
        let method = try deliveryMethods.deliveryMethods().first { $0.code == saved.details.method }
        return SavedDeliveryView(details: saved.details, methodName: method?.name, isCollected: method?.isCollected == true)
    }

    /// `POST /profile/name` with `display_name`; the notice says it was saved. A refused name
    /// answers 400 with Profile itself: the name as typed (less any control characters, which
    /// a page cannot hold) with the reason beside it, and nothing stored.
    func rename(_ request: ShopRequest) throws -> Response {
        let typed = request.http.form["display_name"] ?? ""
        let name = typed.trimmingWhitespace()
        if let problem = Self.problem(with: name) {
            let shown = String(String.UnicodeScalarView(typed.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            let content = try profile(request, typedName: shown, nameProblem: problem)
            throw NothingChanged(answer: page.render(content, title: "Profile", returnTo: Self.tab.path, for: request, status: .badRequest))
        }
        try sessions.setDisplayName(name, for: request.session, at: request.now)
        // Said once on the page it leads to (spoken, with JavaScript), where the greeting
        // shows the new name too.
        var response = Response.redirect(to: request.returnPath(default: Self.tab.path))
        response.setCookie(notices.cookie(Notice(text: "Display name saved: \(name)"), for: request))
        return response
    }

    /// Why `name` (trimmed) cannot be a display name, in words for the shopper, or `nil` when it can.
    static func problem(with name: String) -> String? {
        // A name of only characters drawn as nothing (a zero-width no-break space, a Hangul
        // filler, a soft hyphen) would greet, and be shown to others, as no name at all.
        if !name.unicodeScalars.contains(where: { !$0.properties.isDefaultIgnorableCodePoint }) {
            return "Please enter a display name."
        }
        if !nameLimit.admits(name) {
            return "Display names are limited to \(nameLimit.characters) characters."
        }
        if name.containsControlCharacter {
            return "The display name contains control characters."
        }
        // Others see the name beside other words ("Join NAME's cart"), which these could reverse.
        if name.containsBidiControl {
            return "The display name contains invisible characters that change the direction of text."
        }
        return nil
    }

    /// The shopper's devices for the list: "this device" first as stored, each with the day it
    /// was last seen and the handle its Sign out button posts.
    private func devices(of session: Session) throws -> [DeviceView] {
        guard session.isStored else { return [] }
        return try sessions.devices(ofShopper: session.shopperID).map { device in
            DeviceView(
                name: device.device.isEmpty ? "A browser" : device.device, lastSeen: Self.date(device.lastSeen),
                lastSeenISO: CalendarDay(secondsSince1970: device.lastSeen).isoText, isThisDevice: device.clientID == session.clientID,
                handle: sessionManager.deviceHandle(ofClient: device.clientID)
            )
        }
    }

    /// The tabs in the session's order, each movable one with its place among the movable ones.
    private func tabOrder(_ order: [String]) -> [TabOrderItemView] {
        let tabs = page.renderer.tabBar.arranged(by: order)
        let movable = tabs.filter { $0.role != .prominent }
        return tabs.map { tab in
            TabOrderItemView(tab: tab, position: movable.firstIndex { $0.id == tab.id }, movableCount: movable.count)
        }
    }

    /// "30 Nov 2026", in UTC: the server does not know the shopper's zone.
    static func date(_ seconds: Int64) -> String {
        CalendarDay(secondsSince1970: seconds).text
    }

    static func isoDate(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }

}
