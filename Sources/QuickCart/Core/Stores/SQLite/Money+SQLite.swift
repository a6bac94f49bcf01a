import SQLite

/// Money is stored as an INTEGER number of cents.
extension Money: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(cents) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Money? {
        guard case .integer(let cents) = value else { return nil }
        return Money(cents: cents)
    }
}
