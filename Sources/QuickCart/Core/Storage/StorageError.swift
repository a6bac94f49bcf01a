/// The storage failures the web layer understands. Each backend maps its own passing
/// failures (a full disk, a read-only file, a lock held too long, a database that cannot be
/// reached) to ``unavailable(reason:)``; anything else it throws is a fault, answered with 500.
public enum StorageError: Error, CustomStringConvertible, Equatable {
    /// Storage cannot read or write right now, and nothing was changed: the transaction that
    /// met the failure was rolled back. The same request works once the cause goes, so the
    /// shop answers 503 with `Retry-After`. The reason is for the operator's log only.
    case unavailable(reason: String)
    /// The client a change came through was signed out (by another of the shopper's devices,
    /// or another tab) after the request read its session, so the change was not made: it
    /// would have gone to a shopper the client no longer has. The shop answers 403 (the API 401).
    case signedOut

    public var description: String {
        switch self {
        case .unavailable(let reason): "storage unavailable: \(reason)"
        case .signedOut: "the client was signed out"
        }
    }
}
