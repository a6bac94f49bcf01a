import MicroHTTP

extension EventsController: ShopFeature {
    static func register(with shop: ShopContext, in routes: inout ShopRouter) throws {
        routes.get("/events", use: EventsController(hub: shop.hub).stream)
    }
}

/// `GET /events`: the session's live badge as server-sent events; `GET /events?texts` adds the
/// badge's texts after each count, for the page's script.
struct EventsController: Sendable {
    /// How long browsers wait before reconnecting, in milliseconds.
    static let reconnectDelay = 2_000

    let hub: BadgeHub

    /// Streams only for a session the server issued: a request without a working session
    /// cookie gets 403 and opens nothing, so streams cannot be had for free. Nor for a cookie
    /// the first change replaced (in its grace): a stream would outlast the grace, and that
    /// cookie may be one planted before the change; the browser holds the new one.
    func stream(_ request: ShopRequest) throws -> Response {
        guard !request.isNewSession else {
            throw HTTPError(.forbidden, "The live badge needs a session of this shop. Open a page of the shop first.")
        }
        guard !request.session.isGraceCookie else {
            throw HTTPError(.forbidden, "This browser's session has a new cookie since this page was opened. Reload the page.")
        }
        return open(for: request.session, current: request.badge, wantsTexts: request.http.query["texts"] != nil)
    }

    /// A stream of `session`'s shopper, sent `current` at once: the web's and the API's.
    func open(for session: Session, current: CartChange, wantsTexts: Bool) -> Response {
        let stream = EventStream()
        stream.send(bytes: Array("retry: \(Self.reconnectDelay)\n\n".utf8))
        // Subscribing sends the current count (read with the session) at once, so a
        // reconnecting client is never stale. Under the shopper's key, the same before and
        // after the first change stores it, so news of every client of the shopper reaches it;
        // tagged with the client's key, so signing the client out ends it.
        // `?texts` (the page's script asks for it) adds `badge-text` after each count; without
        // it the stream is the counts alone, as every other client expects.
        hub.subscribe(stream, liveKey: session.shopperLiveKey, client: session.liveKey, current: current, wantsTexts: wantsTexts)
        return Response(
            headers: [
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            ],
            body: .eventStream(stream)
        )
    }
}
