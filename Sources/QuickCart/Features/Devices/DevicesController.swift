import MicroHTTP

extension DevicesController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        let devices = DevicesController(
            joinCodes: shop.storage.joinCodes, sessions: shop.storage.sessions, sessionManager: shop.sessionManager, publisher: shop.publisher,
            codePage: try shop.pages.page(DeviceCodeView.self, tab: .profile), joinPage: try shop.pages.page(JoinView.self, tab: .profile),
            notices: shop.pages.notices, waitingSearches: shop.recentSearchCookies, joining: shop.joining,
            secure: shop.configuration.secureCookies
        )
        routes.get(codePath, use: devices.showCode)
        routes.post(codePath, use: devices.createCode)
        routes.get(joinPath, use: devices.showJoin)
        routes.post(joinPath, use: devices.join)
        routes.post(TabBar.TabID.profile.path("/sign-out"), storesSession: false, use: devices.signOutHere)
        routes.post(TabBar.TabID.profile.path("/devices/sign-out"), storesSession: false, use: devices.signOutDevice)
        routes.post(TabBar.TabID.profile.path("/devices/sign-out-others"), storesSession: false, use: devices.signOutOthers)
    }

    /// This device's code, under Profile.
    private static let codePath = TabBar.TabID.profile.path("/code")
    /// Where a code is entered, and where its link leads.
    private static let joinPath = "/join"
    /// Back to Profile's list of devices, where signing one out returns.
    private static func devicesList(_ request: ShopRequest) -> String {
        request.returnPath(default: TabBar.TabID.profile.path, at: "devices-title")
    }
}

/// "Continue on another device": a code (and the QR code of its link) that brings another
/// browser into this shopper's cart, the join itself, and signing devices out. Every change is
/// a CSRF-checked form post; opening a join link changes nothing.
struct DevicesController: Sendable {
    let joinCodes: any JoinCodeStore
    let sessions: any SessionStore
    let sessionManager: SessionManager
    let publisher: any BadgePublisher
    let codePage: ShopPage<DeviceCodeView>
    let joinPage: ShopPage<JoinView>
    /// Signs the notices its answers leave.
    let notices: NoticeCookies
    /// The cookie of searches made before the session was stored: a sign-out clears it, so they
    /// never reach whoever uses the browser next.
    let waitingSearches: RecentSearchCookies
    /// The join and sign-out rules the API shares, with the per-address limit on wrong codes.
    let joining: DeviceJoining
    var attempts: AddressAttempts { joining.attempts }
    /// Links are `https://` behind HTTPS (`--secure-cookies`).
    let secure: Bool

    /// `GET /profile/code`: this device's live code with its QR code, or a button to show one.
    func showCode(_ request: ShopRequest) throws -> Response {
        try Self.refuseRenewedCookie(request)
        let session = request.session
        let stored = session.isStored ? try joinCodes.newestCode(ofClient: session.clientID) : nil
        var content = DeviceCodeView(code: nil, link: nil, qrSVG: nil, secondsLeft: 0, endedText: nil)
        if let stored {
            if stored.usedAt != nil {
                content = DeviceCodeView(code: nil, link: nil, qrSVG: nil, secondsLeft: 0, endedText: "Your last code was used: another device joined.")
            } else if stored.expiresAt <= request.now || stored.wrongTries >= JoinCode.voidingWrongTries {
                let ended = stored.expiresAt <= request.now ? "Your last code expired." : "Your last code was void after too many wrong tries."
                content = DeviceCodeView(code: nil, link: nil, qrSVG: nil, secondsLeft: 0, endedText: ended)
            } else {
                let code = sessionManager.joinCode(nonce: stored.nonce)
                let link = link(for: code, request)
                content = DeviceCodeView(
                    code: JoinCode.display(code), link: link,
                    qrSVG: QRCode.svg(for: link, label: "QR code of the link to join this cart"),
                    secondsLeft: stored.expiresAt - request.now, endedText: nil
                )
            }
        }
        return codePage.render(content, title: "Continue on another device", returnTo: Self.codePath, for: request)
    }

    /// `POST /profile/code`: a new code for this device (its earlier one is void), back to its page.
    func createCode(_ request: ShopRequest) throws -> Response {
        try Self.refuseRenewedCookie(request)
        let nonce = Hex.encode(SecureRandom.bytes(count: 16))
        let code = sessionManager.joinCode(nonce: nonce)
        try joinCodes.createCode(hash: sessionManager.joinCodeHash(code), nonce: nonce, for: request.session, at: request.now)
        return .redirect(to: Self.codePath)
    }

    /// `GET /join`, or `GET /join?code=…` (the link): whose cart the code joins, with a button
    /// that posts the join. Reads only; a wrong code counts against this address's tries.
    func showJoin(_ request: ShopRequest) throws -> Response {
        let given = request.http.query["code"] ?? ""
        var preview: JoinView.Preview?
        var problem: String?
        var wait: Int64?
        if !given.isEmpty {
            if !attempts.allows(request.http.remoteAddress, at: request.now) {
                problem = Self.tooManyTries
                wait = attempts.secondsUntilAllowed(request.http.remoteAddress, at: request.now)
            } else if let code = JoinCode.normalized(given) {
                if let found = try joinCodes.preview(hash: sessionManager.joinCodeHash(code), at: request.now) {
                    preview = found.shopperID == request.session.shopperID && request.session.isStored
                        ? .sharesCart : .join(name: found.displayName, items: Badge.itemCountText(found.itemCount))
                } else {
                    attempts.record(request.http.remoteAddress, at: request.now)
                    problem = Self.notValid
                }
            } else {
                // No code at all guesses none: it costs the address none of its tries.
                problem = Self.notACode
            }
        }
        return showJoin(given: given, preview: preview, problem: problem, wait: wait, request)
    }

    /// The join page with `given` in its field (as a code reads, or as typed), and what is wrong
    /// with it beside the field: 400, or 429 with the wait while the address has no tries left.
    private func showJoin(given: String, preview: JoinView.Preview?, problem: String?, wait: Int64?, _ request: ShopRequest) -> Response {
        var page = joinPage.render(
            JoinView(code: JoinCode.normalized(given).map(JoinCode.display) ?? String(given.prefix(24)), preview: preview, problem: problem),
            title: "Join a cart", returnTo: Self.joinPath, for: request, status: wait != nil ? .tooManyRequests : problem == nil ? .ok : .badRequest
        )
        // Throttled, as the post is: the status and the wait say so to a script, too.
        if let wait { page.headers["Retry-After"] = String(wait) }
        return page
    }

    /// `POST /join` with `code`: joins this browser to the code's shopper in one transaction,
    /// adding this browser's cart lines to the shopper's; on to the cart, saying what was added.
    /// A code refused gives the join page again, the code as typed and the reason beside it.
    func join(_ request: ShopRequest) throws -> Response {
        try Self.refuseRenewedCookie(request)
        let device = DeviceName.of(userAgent: request.http.headers["User-Agent"])
        // The browser goes on under a new cookie, stored already or not: its old one (a planted
        // one, in its first change's grace too) reaches nothing of the cart it joins.
        let renamed = sessionManager.renamedClient(at: request.now)
        let typed = request.http.form["code"] ?? ""
        // A refusal stores no session (a wrong try counts against the codes and the address only).
        func refused(_ problem: String, wait: Int64? = nil) -> NothingChanged {
            NothingChanged(answer: showJoin(given: typed, preview: nil, problem: problem, wait: wait, request))
        }
        switch try joining.join(
            typed: typed, session: request.session, device: device, address: request.http.remoteAddress,
            renamed: renamed, at: request.now
        ) {
        case .tooManyTries:
            throw refused(Self.tooManyTries, wait: attempts.secondsUntilAllowed(request.http.remoteAddress, at: request.now))
        case .malformed:
            throw refused(Self.notACode)
        case .refused:
            throw refused(Self.notValid)
        case .alreadyJoined:
            throw NothingChanged(answer: .redirect(to: TabBar.TabID.cart.path))
        case .joined(let merged):
            // What was merged travels in the address, as checkout's order number does: the
            // script follows a post that leads to another page by loading it again, which would
            // spend a one-shot notice before the shopper saw it. Tagged for this client alone.
            let tag = sessionManager.joinedTag(merged: merged, ofClient: renamed.clientID)
            var answer = Response.redirect(to: TabBar.TabID.cart.path("?joined=\(merged).\(tag)"))
            // The join stored the waiting searches in the cart joined; their cookie is cleared
            // by the router, as for any change that stores a session.
            answer.setCookie(renamed.cookie)
            return answer
        }
    }

    /// `POST /profile/devices/sign-out` with `device` (a handle from the devices list): signs
    /// that device out: its next request is a new, empty shopper; its streams end at once.
    func signOutDevice(_ request: ShopRequest) throws -> Response {
        try Self.refuseRenewedCookie(request)
        let session = request.session
        guard let handle = request.http.form["device"], let device = try joining.device(handle: handle, of: session) else {
            throw HTTPError(.notFound, "That device is not signed in to this cart any more.")
        }
        if device.clientID == session.clientID { return try signOutHere(request) }
        return try end([device], request, notice: "Signed out \(device.device.isEmpty ? "the device" : device.device)")
    }

    /// `POST /profile/sign-out` ("Sign out of this browser", and this device's Sign out in the
    /// devices list): this browser gets a new, empty session (a new cookie); its client's ids
    /// are spent for good (before and after rotation), its open streams end, a shopper left
    /// without clients is deleted with its cart and searches, and the searches waiting in its
    /// cookie go too. Not with a cookie the first change replaced (403), whose reach ends with
    /// its grace.
    func signOutHere(_ request: ShopRequest) throws -> Response {
        try Self.refuseRenewedCookie(request)
        var response = Response.redirect(to: TabBar.TabID.profile.path)
        response.setCookie(try joining.signOutHere(request.session, at: request.now))
        if waitingSearches.isCarried(by: request.http) { response.setCookie(waitingSearches.clearingCookie()) }
        return response
    }

    /// `POST /profile/devices/sign-out-others`: every device of the shopper but this one.
    func signOutOthers(_ request: ShopRequest) throws -> Response {
        try Self.refuseRenewedCookie(request)
        let session = request.session
        guard session.isStored else { throw NothingChanged(answer: .redirect(to: Self.devicesList(request))) }
        let ended = try joining.signOutOthers(of: session, at: request.now)
        return backToDevices(request, notice: ended == 0 ? "No other device was signed in" : "Signed out everywhere else")
    }

    private func end(_ devices: [StoredDevice], _ request: ShopRequest, notice: String) throws -> Response {
        try joining.signOut(devices, of: request.session, at: request.now)
        return backToDevices(request, notice: notice)
    }

    /// Back to Profile's list of devices, saying what was signed out.
    private func backToDevices(_ request: ShopRequest, notice: String) -> Response {
        var response = Response.redirect(to: Self.devicesList(request))
        response.setCookie(notices.cookie(Notice(text: notice), for: request))
        return response
    }

    /// A cookie its first change replaced reaches the client only to finish what was in flight
    /// (a planted cookie stays in its planter's hands too): it must not see a code, show one,
    /// move the client into another cart, or sign any device out, which would all outlast its
    /// five minutes.
    static func refuseRenewedCookie(_ request: ShopRequest) throws {
        guard !request.session.isGraceCookie else {
            throw HTTPError(.forbidden, "This browser's session was renewed. Reload the page and try again.")
        }
    }

    /// The link a code's QR code carries: this host's join page with the code.
    private func link(for code: String, _ request: ShopRequest) -> String {
        let host = request.http.headers["Host"] ?? "localhost"
        return (secure ? "https://" : "http://") + host + Self.joinPath + "?code=" + JoinCode.display(code)
    }

    /// What the cart says after a join (`/cart?joined=N.TAG`): how many of this browser's items
    /// were added. `nil` for anything but a whole number tagged for `session`'s client.
    static func joinedNotice(_ value: String?, for session: Session, by sessionManager: SessionManager) -> Notice? {
        guard let value, let dot = value.utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let count = value[..<dot], tag = value[value.index(after: dot)...]
        guard (1...3).contains(count.utf8.count), count.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let merged = Int(count),
              ConstantTime.equals(String(tag), sessionManager.joinedTag(merged: merged, ofClient: session.clientID)) else {
            return nil
        }
        return Notice(text: merged == 0 ? "You joined the cart." : "\(Badge.itemCountText(merged)) from this browser \(merged == 1 ? "was" : "were") added.")
    }

    /// "10 minutes", "1 minute", "less than a minute".
    static func minutesText(_ seconds: Int64) -> String {
        let minutes = (seconds + 59) / 60
        if seconds < 60 { return "less than a minute" }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    static let notValid = "That code is not valid: it may be mistyped, used already, or expired. Ask the other device for a new one."
    static let tooManyTries = "Too many wrong codes from this address. Wait ten minutes and try again."
    static let notACode = "A code is eight letters, such as BCDF-GHJK. Check it and try again."
}
