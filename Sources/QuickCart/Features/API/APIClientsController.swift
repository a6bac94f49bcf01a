import MicroHTTP

/// An app's clients: making one (a new shopper with a bearer token), joining another shopper
/// with the web's one-time code, the shopper's devices and signing one out, and the live
/// stream. The rules are the web's (``DeviceJoining``, ``SessionManager``, ``BadgeHub``).
struct APIClientsController: Sendable {
    let sessionManager: SessionManager
    let sessions: any SessionStore
    /// Asked before a token is issued (``ShopStorage/confirmReachable()``): nothing is stored
    /// then, and a token is of no use while the database is out of reach.
    let storage: any ShopStorage
    let joining: DeviceJoining
    let creations: AddressAttempts
    let events: EventsController
    let cart: APICartController

    /// `POST /api/v1/clients` `{"device": "iPhone"}` (optional): a new client of a new shopper.
    /// The token is in this answer only; nothing is stored until the client's first change.
    func create(_ http: Request, now: Int64) throws -> Response {
        let body = try APIBody.read(http, fields: ["device": .string])
        let sent = body.string("device") ?? ""
        // Bidirectional controls could reverse the text shown after the name in the devices list.
        guard APIText.admits(sent, maxLength: APIToken.deviceMaxLength), !sent.containsBidiControl else {
            throw APIProblem(
                .invalidValue,
                "The device name must be at most \(APIToken.deviceMaxLength) Unicode code points, without control characters or bidirectional controls.",
                field: "device"
            )
        }
        let device = sent.trimmingWhitespace()
        guard creations.allows(http.remoteAddress, at: now) else {
            let wait = creations.secondsUntilAllowed(http.remoteAddress, at: now)
            throw APIProblem(.rateLimited, "Too many new clients from this address. Wait \(wait) seconds and try again.", headers: [("Retry-After", String(wait))])
        }
        try storage.confirmReachable()
        creations.record(http.remoteAddress, at: now)
        let client = sessionManager.issueAPIClient(device: device, at: now)
        return APIAnswer.json(status: .created, capacity: 256) { json in
            json.object { json in
                json.field("token") { $0.string(client.token) }
                json.field("client") { json in
                    json.object { json in
                        json.field("id") { $0.string(client.clientID) }
                        json.field("device") { $0.string(APIToken.deviceName(device)) }
                    }
                }
            }
        }
    }

    /// `POST /api/v1/client/join` `{"code": "BCDF-GHJK"}`: this client joins the code's shopper,
    /// its own lines added to that cart, as a browser joins with the same code.
    func join(_ request: APIRequest) throws -> Response {
        let body = try APIBody.read(request.http, fields: ["code": .string], required: ["code"])
        let outcome = try joining.join(
            typed: body.string("code") ?? "", session: request.session, device: request.session.device,
            address: request.http.remoteAddress, renamed: nil, at: request.now
        )
        let merged: Int
        switch outcome {
        case .tooManyTries:
            let wait = joining.attempts.secondsUntilAllowed(request.http.remoteAddress, at: request.now)
            throw APIProblem(.rateLimited, DevicesController.tooManyTries, headers: [("Retry-After", String(wait))])
        case .malformed:
            throw APIProblem(.invalidCode, "A code is eight letters, such as BCDF-GHJK.", field: "code")
        case .refused:
            throw APIProblem(.invalidCode, DevicesController.notValid, field: "code")
        case .alreadyJoined:
            merged = 0
        case .joined(let count):
            merged = count
        }
        let (cart, version) = try self.cart.current(request)
        var response = APIAnswer.json { json in
            json.object { json in
                json.field("cart") { APIModels.cart(cart, version: version, into: &$0) }
                json.field("added") { $0.number(merged) }
            }
        }
        response.headers["ETag"] = APIRequest.etag(of: version)
        return response
    }

    /// `GET /api/v1/devices`: the shopper's clients, first stored first; a client not stored
    /// yet is its shopper's only one.
    func devices(_ request: APIRequest) throws -> Response {
        let session = request.session
        let stored = session.isStored ? try sessions.devices(ofShopper: session.shopperID) : []
        let devices = stored.isEmpty
            ? [StoredDevice(clientID: session.clientID, device: session.device, createdAt: request.now, lastSeen: request.now)] : stored
        return APIAnswer.json { json in
            json.object { json in
                json.field("devices") { json in
                    json.array { json in
                        for device in devices {
                            json.object { json in
                                json.field("id") { $0.string(sessionManager.deviceHandle(ofClient: device.clientID)) }
                                json.field("device") { $0.string(device.device) }
                                json.field("lastSeen") { $0.string(CalendarDay(secondsSince1970: device.lastSeen).isoText) }
                                json.field("current") { $0.bool(device.clientID == session.clientID) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `DELETE /api/v1/devices/:id`: signs that device out (this one included): its token, or
    /// its cookies, reach nothing again, on any instance, and its streams end.
    func signOut(_ request: APIRequest) throws -> Response {
        let handle = request.http.routeParameters["id"] ?? ""
        let session = request.session
        if ConstantTime.equals(handle, sessionManager.deviceHandle(ofClient: session.clientID)) {
            _ = try joining.signOutHere(session, at: request.now)
        } else if let device = try joining.device(handle: handle, of: session) {
            try joining.signOut([device], of: session, at: request.now)
        } else {
            throw APIProblem(.notFound, "That device is not signed in to this shopper.")
        }
        var response = Response(status: .noContent)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `GET /api/v1/events`: the shopper's live badge, the stream the web's `/events` is:
    /// `event: badge` with the count (and its version as `id:`), `?texts` adding the texts.
    func events(_ request: APIRequest) -> Response {
        events.open(
            for: request.session, current: CartChange(itemCount: request.cart.itemCount, version: request.cartVersion),
            wantsTexts: request.http.query["texts"] != nil
        )
    }
}
