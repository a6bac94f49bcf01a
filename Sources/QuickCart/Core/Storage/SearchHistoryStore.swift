/// Each session's recent searches: the newest ``SearchHistory/limit`` distinct ones, ignoring case.
public protocol SearchHistoryStore: Sendable {
    /// The session's recent searches, newest first.
    func recentSearches(for session: Session) throws -> [String]

    /// Remembers a search (at `nowMilliseconds`) of a stored session; for a session that is not
    /// stored it does nothing, since searching is reading and never stores a session. The same
    /// words in another case replace the older spelling; only the newest ``SearchHistory/limit`` stay.
    /// The search is the shopper's the client belongs to now (one it joined since the session
    /// was read), and nobody's when the client was signed out meanwhile.
    func recordSearch(_ query: String, for session: Session, at nowMilliseconds: Int64) throws

    /// Forgets every recent search of the session, storing it first (at `now`, seconds) if it
    /// is not stored yet: its searches waited in a cookie, which a copy could bring back while
    /// the session stayed unstored, and a stored session never reads that cookie.
    func clearSearches(for session: Session, at now: Int64) throws
}

/// The rule every ``SearchHistoryStore`` keeps.
public enum SearchHistory {
    /// How many searches a session keeps.
    public static let limit = 5
}
