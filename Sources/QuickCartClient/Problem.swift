/// An RFC 9457 problem details answer, as the server sends for every 4xx and 5xx.
public struct Problem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The problem's type URI: `/api/v1/problems/<slug>`.
    public let type: String
    /// A short, fixed summary of the type.
    public let title: String
    /// The HTTP status.
    public let status: Int
    /// What went wrong with this request, in words for people.
    public let detail: String?
    /// The request body's field at fault, for invalid bodies and values.
    public let field: String?

    /// The type's last path segment (`stale-cart`), which ``QuickCartError`` is chosen by.
    public var slug: String {
        type.split(separator: "/").last.map(String.init) ?? type
    }

    /// `"412 stale-cart: …"`, for logs.
    public var description: String {
        "\(status) \(slug): \(detail ?? title)" + (field.map { " (field \($0))" } ?? "")
    }
}
