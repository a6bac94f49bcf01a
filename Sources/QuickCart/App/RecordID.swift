/// How the shop spells the id of a product or an order in an address and in the API's JSON: a
/// positive whole number in plain ASCII digits, without leading zeros. Only that spelling names
/// a record, so `01` or `+1` is no alias of `1`: an address has one spelling, and the API's
/// document gives ids the pattern `^[1-9][0-9]{0,17}$`.
///
/// ```swift
/// RecordID.parse("12")   // 12
/// RecordID.parse("012")  // nil
/// ```
enum RecordID {
    /// The id `text` spells, or `nil` for any other text.
    static func parse(_ text: String) -> Int64? {
        let digits = text.utf8
        guard (1...18).contains(digits.count), let first = digits.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(text)
    }
}
