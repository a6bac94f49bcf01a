/// The values bound to a statement's `?` parameters, in order.
///
/// Written as an array literal of any convertible values, where `nil` binds NULL:
/// ```swift
/// try db.execute("UPDATE carts SET note = ? WHERE id = ?", [note, cartID])
/// let rows = try db.fetchAll("SELECT name FROM products WHERE price < ?", [limit]) { try $0.string(0) }
/// ```
/// Values already converted travel as they are: `StatementArguments(values)`.
public struct StatementArguments: ExpressibleByArrayLiteral, Sendable, Equatable {
    /// The values, one per parameter.
    public var values: [DatabaseValue]

    /// Arguments from values already converted.
    public init(_ values: [DatabaseValue]) {
        self.values = values
    }

    /// Arguments from a literal of convertible values; `nil` binds NULL.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        // Read in place: `map` copied each existential out of the literal first.
        var values: [DatabaseValue] = []
        values.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { elements in
            for index in elements.indices {
                values.append(elements[index]?.databaseValue ?? .null)
            }
        }
        self.values = values
    }
}
