import Dispatch
import Synchronization

/// Brings orders' moves made by another process (`quickcart orders mark` beside a server on
/// the same SQLite file, which no notification reaches) to this process's hub: it looks for
/// new moves once a second, and reads them only while some stream is open. PostgreSQL needs
/// none: its moves arrive as notifications.
final class OrderMoveWatcher: Sendable {
    private let feed: any OrderFeed
    private let hub: BadgeHub
    private let queue = DispatchQueue(label: "quickcart.order-moves", qos: .utility)
    /// The last move seen, and the timer while watching.
    private let state = Mutex<(lastSeen: Int64, timer: (any DispatchSourceTimer)?)>((0, nil))

    init(feed: any OrderFeed, hub: BadgeHub) {
        self.feed = feed
        self.hub = hub
    }

    /// Starts watching, from the moves made after now.
    func start() {
        let lastSeen = (try? feed.lastMoveID()) ?? 0
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.look() }
        state.withLock { $0 = (lastSeen, timer) }
        timer.resume()
    }

    /// Stops watching; no news reaches the hub afterwards.
    func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    private func look() {
        let lastSeen = state.withLock { $0.lastSeen }
        do {
            guard hub.totalStreamCount > 0 else {
                let newest = try feed.lastMoveID()
                state.withLock { $0.lastSeen = newest }
                return
            }
            let news = try feed.moveNews(afterMoveID: lastSeen, limit: 500)
            for move in news { hub.announceOrder(move.orderID, state: move.state, liveKey: move.shopperLiveKey) }
            if let last = news.last { state.withLock { $0.lastSeen = last.id } }
        } catch {
            Log.error("reading orders' moves for the open pages failed: \(error)")
        }
    }
}
