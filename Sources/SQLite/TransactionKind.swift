/// How a transaction takes its locks at `BEGIN`.
///
/// In WAL mode readers never block, so the choice matters for writers: a deferred
/// transaction that reads first and writes later fails with
/// ``SQLiteError/busySnapshot`` if another connection committed in between, and the busy
/// timeout cannot help. An immediate transaction takes the write lock up front, waiting
/// for it within the busy timeout, so it always sees the latest data and never needs to
/// upgrade.
public enum TransactionKind: Sendable, Hashable {
    /// `BEGIN DEFERRED`: locks are taken on first read or write. Right for read-only work.
    case deferred
    /// `BEGIN IMMEDIATE`: the write lock is taken at once. Right for any work that writes.
    case immediate
    /// `BEGIN EXCLUSIVE`: in WAL mode, the same as immediate.
    case exclusive

    /// The statement that opens a transaction of this kind.
    var beginSQL: String {
        switch self {
        case .deferred: "BEGIN DEFERRED TRANSACTION"
        case .immediate: "BEGIN IMMEDIATE TRANSACTION"
        case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
        }
    }
}
