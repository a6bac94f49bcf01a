import MicroHTTP

/// One page a feature shows: its view's template, compiled at start, the tab it belongs to,
/// and the renderer that puts it in the layout.
struct ShopPage<Content: PageView>: Sendable {
    let renderer: PageRenderer
    let template: PageTemplate<Content>
    /// The tab marked current while the page shows; `nil` for pages of no tab.
    let tab: TabBar.TabID?

    /// `content` for the request's session: its badge count, its tabs' places, and the notice
    /// the post that led here left (else `notice`). `returnTo` is where the page's forms return.
    func render(
        _ content: Content, title: String, returnTo: String, for request: ShopRequest, status: HTTPStatus = .ok, notice: Notice? = nil
    ) -> Response {
        renderer.render(
            content, with: template,
            .init(title: title, tab: tab, cartCount: request.cart.itemCount, returnTo: returnTo, status: status),
            session: request.session, places: request.places, notice: renderer.notice(in: request) ?? notice
        )
    }

    /// `content` as `page` describes it, for `session` (`nil` for pages that read none).
    func render(_ content: Content, _ page: PageRenderer.Page, session: Session?) -> Response {
        renderer.render(content, with: template, page, session: session)
    }
}
