/// A result's column names, read once per statement execution and shared by all its rows, so
/// a row costs one array of values. Rows have a handful of columns, so a name is found by
/// scanning, which costs less than building a table per execution.
public final class ColumnNames: Sendable {
    /// The names in result order, as the database reports them (the `AS` alias when given).
    public let names: [String]

    public init(names: [String]) {
        self.names = names
    }

    /// The leftmost column called `name`, as in SQL when a join yields duplicate names; names
    /// match exactly first, then case-insensitively.
    @inlinable
    public func index(of name: String) -> Int? {
        if let index = names.firstIndex(of: name) {
            return index
        }
        // SQL identifiers are case-insensitive; the scan only runs on a near miss.
        let lowercased = name.lowercased()
        return names.firstIndex { $0.lowercased() == lowercased }
    }
}
