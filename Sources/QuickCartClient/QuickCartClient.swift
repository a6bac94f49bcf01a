import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of a QuickCart shop's JSON API (`/api/v1`), for a native app.
///
/// Make a client once, keep its token, and use the same token from then on:
/// ```swift
/// let shop = QuickCartClient(baseURL: URL(string: "https://shop.example")!)
/// let registration = try await shop.createClient(device: "iPhone")
/// let client = shop.withToken(registration.token)   // keep registration.token in the Keychain
/// let cart = try await client.addLine(productID: "3")
/// for try await count in client.badgeCounts() { print(count) }
/// ```
/// Every call throws a ``QuickCartError``. Values are `Sendable`: share one client between
/// tasks and actors.
public struct QuickCartClient: Sendable {
    /// The shop's address (`https://shop.example`); the API lives under its `/api/v1/`.
    public let baseURL: URL
    /// The bearer token sent with every call, if any.
    public let token: String?
    /// How the event stream reconnects.
    public let reconnection: ReconnectPolicy
    let session: URLSession

    /// A client of the shop at `baseURL`, with `token` (from ``createClient(device:)``) or
    /// none (for the catalog and for creating a client).
    /// - Parameter session: The session calls go through; by default one the process shares
    ///   that keeps no cookies and no cache, since every answer is the shop's state now.
    public init(baseURL: URL, token: String? = nil, reconnection: ReconnectPolicy = ReconnectPolicy(), session: URLSession? = nil) {
        self.baseURL = baseURL
        self.token = token
        self.reconnection = reconnection
        self.session = session ?? Self.sharedSession
    }

    private static let sharedSession = URLSession(configuration: configuration(requestTimeout: 30))

    /// The same client, sending `token`.
    public func withToken(_ token: String) -> QuickCartClient {
        QuickCartClient(baseURL: baseURL, token: token, reconnection: reconnection, session: session)
    }

    /// An address the API gives relative to the shop (a product image's `url`), made whole.
    public func resolve(_ path: String) -> URL? {
        URL(string: path, relativeTo: baseURL)?.absoluteURL
    }

    /// A configuration without cookies or a cache, as every call wants.
    static func configuration(requestTimeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = requestTimeout
        return configuration
    }

    // MARK: - Requests

    /// A request for `path` under `/api/v1` (segments are percent-encoded here), with the
    /// token and `headers`.
    func request(_ method: String, _ segments: [String], query: [(String, String)] = [], headers: [String: String] = [:]) -> URLRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) ?? URLComponents()
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + "/api/v1/" + segments.map(Self.encode).joined(separator: "/")
        components.percentEncodedQuery = query.isEmpty ? nil : query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        var request = URLRequest(url: components.url ?? baseURL)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Only unreserved characters go unescaped, so a `/`, `+` or `&` in an id or a query
    /// stays part of it.
    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Sends `request` with `body` as JSON, and returns the answer when its status is 2xx;
    /// anything else is thrown as the error its problem details name.
    func send(_ request: URLRequest, body: (some Encodable & Sendable)? = Optional<Empty>.none) async throws(QuickCartError) -> Answer {
        var request = request
        if let body {
            do {
                request.httpBody = try JSONEncoder().encode(body)
            } catch {
                throw .unexpectedResponse(status: 0, description: "the request body does not encode: \(error)")
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw QuickCartError(transport: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .unexpectedResponse(status: 0, description: "not an HTTP answer")
        }
        let answer = Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                            retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
                            replayed: http.value(forHTTPHeaderField: "Idempotent-Replayed"), body: data)
        guard (200..<300).contains(answer.status) else { throw answer.error }
        return answer
    }

    /// Sends and decodes the answer's body as `Result`.
    func fetch<Result: Decodable>(_ request: URLRequest, body: (some Encodable & Sendable)? = Optional<Empty>.none, as type: Result.Type = Result.self) async throws(QuickCartError) -> Result {
        try await send(request, body: body).decode(Result.self)
    }
}

/// An empty JSON object, `{}`, for bodies that carry nothing (yet).
struct Empty: Codable, Sendable {}
