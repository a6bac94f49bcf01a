/// The isolation level a transaction runs at.
///
/// READ COMMITTED suits single atomic statements (`UPDATE … SET qty = qty + 1`) and row
/// locks (`SELECT … FOR UPDATE`). REPEATABLE READ and SERIALIZABLE give a consistent
/// snapshot but may fail with a serialization failure (SQLSTATE 40001) that only a rerun
/// of the whole transaction resolves; see
/// ``PostgresConnection/inTransaction(_:maximumAttempts:_:)``.
public enum IsolationLevel: Sendable, Hashable {
    /// Each statement sees what was committed before it started. PostgreSQL's default.
    case readCommitted
    /// Every statement sees the snapshot taken at the transaction's first statement.
    case repeatableRead
    /// As if the transactions had run one after another; conflicts fail with 40001.
    case serializable

    /// The statement that opens a transaction at this level.
    var beginSQL: String {
        switch self {
        case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
        case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
        }
    }
}
