/// A result row as the stores read it, whichever the backend: SQLite's `Row` and
/// PostgreSQL's `PostgresRow` satisfy it with RowDecoding's `ColumnRow` reads, SQLite's
/// `StatementRow` (read in place) with its own, so what both backends decode alike
/// (``StoredClientRows``) is written once. Reads throw a `RowDecodingError` on NULL, a value
/// of another type or a column that is not there.
protocol StoredRow: ~Copyable {
    func bool(_ index: Int) throws -> Bool
    func int(_ index: Int) throws -> Int
    func int64(_ index: Int) throws -> Int64
    func string(_ index: Int) throws -> String
    func isNull(_ index: Int) throws -> Bool
}

extension StoredRow where Self: ~Copyable {
    /// A text column that may be NULL.
    func optionalString(_ index: Int) throws -> String? {
        try isNull(index) ? nil : try string(index)
    }
}
