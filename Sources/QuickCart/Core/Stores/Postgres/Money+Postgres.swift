import Postgres

/// Money is stored as a `bigint` number of cents.
extension Money: PostgresValueConvertible {
    public var postgresValue: PostgresValue { .integer(cents) }

    public static func fromPostgresValue(_ value: PostgresValue) -> Money? {
        guard case .integer(let cents) = value else { return nil }
        return Money(cents: cents)
    }
}
