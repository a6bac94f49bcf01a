/// A statement whose parameters come from its arguments, written where they go: each value
/// interpolated becomes the next `$n` and is bound as that parameter, so nothing is numbered
/// by hand and no value is ever part of the SQL text. As postgres-nio's `PostgresQuery`.
///
/// ```swift
/// try connection.execute(query: "INSERT INTO users (email, name) VALUES (\(email), \(name))")
/// // INSERT INTO users (email, name) VALUES ($1, $2), binding email and name
/// ```
///
/// Only values are interpolated; SQL text is written in the literal (a fragment chosen by the
/// program, never by input, goes in with `\(sql: …)`).
public struct PostgresQuery: ExpressibleByStringInterpolation, Sendable {
    /// The SQL text with `$1`, `$2`, … where the values were.
    public private(set) var sql: String
    /// The values, in parameter order.
    public private(set) var arguments: [PostgresValue]

    public init(stringLiteral value: String) {
        sql = value
        arguments = []
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        arguments = stringInterpolation.arguments
    }

    /// Builds the text and the arguments as the literal is read.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var sql = ""
        var arguments: [PostgresValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 4 * interpolationCount)
            arguments.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// The next parameter, bound to `value` (`nil` binds NULL).
        public mutating func appendInterpolation(_ value: (some PostgresValueConvertible)?) {
            arguments.append(value?.postgresValue ?? .null)
            sql += "$\(arguments.count)"
        }

        /// SQL text the program chose (a column list, a direction), written as it is.
        public mutating func appendInterpolation(sql fragment: String) {
            sql += fragment
        }
    }
}

extension PostgresConnection {
    /// Runs `query`, whose parameters are its interpolated values.
    /// - Returns: The number of rows affected.
    /// - Throws: ``PostgresError`` if it fails.
    @discardableResult
    public func execute(query: PostgresQuery) throws -> Int {
        try execute(query.sql, arguments: query.arguments)
    }

    /// Runs `query` and maps every row.
    /// - Throws: ``PostgresError`` if the query fails, or whatever `map` throws.
    public func fetchAll<T>(query: PostgresQuery, map: (PostgresRow) throws -> T) throws -> [T] {
        try fetchAll(query.sql, arguments: query.arguments, map: map)
    }
}
