import Dispatch
import MicroHTTP

/// Counts the router's answers by route pattern and status, and times them in a histogram
/// per route: a middleware whose whole cost per request is three relaxed atomic additions
/// into slots laid out at start (one per route, and one for answers no route gave).
///
/// Event streams are counted when they end but not timed: their length is the shopper's
/// visit, not the server's work. Static files the server answers itself are not seen here.
struct RequestMetrics: Middleware {
    /// Upper bounds of the latency buckets, in seconds.
    static let bucketBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// The label of answers no route gave (an unknown address, a request refused before routing).
    static let unmatched = "unmatched"

    /// The routes' patterns, then ``unmatched``.
    let routes: [String]
    private let bucketMicroseconds: [Int]
    /// `route × 500` counters, one per status code 100…599.
    private let answers: AtomicCounters
    /// Per route: each bucket (not cumulative), the one past the last bound, then the sum in µs.
    private let latencies: AtomicCounters

    init(routePatterns: [String]) {
        routes = routePatterns + [Self.unmatched]
        bucketMicroseconds = Self.bucketBounds.map { Int($0 * 1_000_000) }
        answers = AtomicCounters(count: routes.count * Self.statusSlots)
        latencies = AtomicCounters(count: routes.count * (Self.bucketBounds.count + 2))
    }

    private static let statusSlots = 500
    private var latencyStride: Int { Self.bucketBounds.count + 2 }

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        try next(request)
    }

    func completed(_ request: Request, _ delivery: Delivery) {
        let route = delivery.routeSlot >= 0 && delivery.routeSlot < routes.count - 1 ? delivery.routeSlot : routes.count - 1
        let code = min(max(delivery.status.code, 100), 599)
        answers.add(1, at: route * Self.statusSlots + code - 100)
        guard delivery.bodyBytes != nil else { return }
        let microseconds = Int((DispatchTime.now().uptimeNanoseconds &- delivery.startedAt) / 1000)
        var bucket = 0
        while bucket < bucketMicroseconds.count, microseconds > bucketMicroseconds[bucket] { bucket += 1 }
        latencies.add(1, at: route * latencyStride + bucket)
        latencies.add(microseconds, at: route * latencyStride + bucketMicroseconds.count + 1)
    }

    /// Writes `quickcart_http_requests_total` and `quickcart_http_request_duration_seconds`.
    func write(to output: inout MetricsText) {
        output.family("quickcart_http_requests_total", "counter", "Answers of the shop's router, by route pattern and status.")
        for (index, route) in routes.enumerated() {
            for slot in 0..<Self.statusSlots {
                let count = answers.value(at: index * Self.statusSlots + slot)
                if count > 0 { output.sample("quickcart_http_requests_total", labels: [("route", route), ("status", String(slot + 100))], count) }
            }
        }
        let name = "quickcart_http_request_duration_seconds"
        output.family(name, "histogram", "Time from the handler's start until the answer was sent, by route pattern (event streams excluded).")
        for (index, route) in routes.enumerated() {
            var cumulative = 0
            for (bucket, bound) in (Self.bucketBounds + [.infinity]).enumerated() {
                cumulative += latencies.value(at: index * latencyStride + bucket)
                output.sample(name + "_bucket", labels: [("route", route), ("le", MetricsText.number(bound))], cumulative)
            }
            let sum = Double(latencies.value(at: index * latencyStride + bucketMicroseconds.count + 1)) / 1_000_000
            output.sample(name + "_sum", labels: [("route", route)], sum)
            output.sample(name + "_count", labels: [("route", route)], cumulative)
        }
    }
}
