import Synchronization

/// The byte size of the last page a template rendered, shared by the server's threads: a
/// guess for the next page's buffer. Races only cost a guess, so relaxed ordering does.
final class PageSize: Sendable {
    private let bytes = Atomic<Int>(16 * 1024)

    /// The last size, with room to spare for a page a little longer.
    var estimate: Int { bytes.load(ordering: .relaxed) + 1024 }

    func record(_ size: Int) {
        bytes.store(size, ordering: .relaxed)
    }
}
