/// Reads an `Accept-Encoding` field (RFC 9110 §12.5.3) for the one question the server asks of
/// it: may the answer be gzip-compressed?
///
/// Works on the field's bytes, with no allocation, because the static fast path asks it for
/// every file it answers.
enum AcceptEncoding {
    /// Whether `field` accepts gzip: `gzip` (or `x-gzip`) listed with a weight above zero, or,
    /// when neither is listed, `*` with a weight above zero. `gzip;q=0` refuses it; a weight
    /// that is not a number counts as above zero; when a coding is listed twice, the last wins.
    static func acceptsGzip(_ field: UnsafeRawBufferPointer) -> Bool {
        var gzip: Bool?
        var any: Bool?
        var index = 0
        while index < field.count {
            // One element: coding *( OWS ";" OWS name "=" value ), up to the next comma.
            while index < field.count, isSeparatorOrSpace(field[index]) { index += 1 }
            let codingStart = index
            while index < field.count, !isDelimiter(field[index]) { index += 1 }
            let coding = UnsafeRawBufferPointer(rebasing: field[codingStart..<index])
            var acceptable = true
            while index < field.count, field[index] != UInt8(ascii: ",") {
                guard field[index] == UInt8(ascii: ";") else {
                    index += 1
                    continue
                }
                index += 1
                while index < field.count, isSpace(field[index]) { index += 1 }
                let nameStart = index
                while index < field.count, !isDelimiter(field[index]), field[index] != UInt8(ascii: "=") { index += 1 }
                let isWeight = index - nameStart == 1 && field[nameStart] | 0x20 == UInt8(ascii: "q")
                guard isWeight, index < field.count, field[index] == UInt8(ascii: "=") else { continue }
                index += 1
                let valueStart = index
                while index < field.count, !isDelimiter(field[index]) { index += 1 }
                acceptable = !isZero(UnsafeRawBufferPointer(rebasing: field[valueStart..<index]))
            }
            if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") {
                gzip = acceptable
            } else if coding.count == 1, coding[0] == UInt8(ascii: "*") {
                any = acceptable
            }
        }
        return gzip ?? any ?? false
    }

    /// Whether the NUL-terminated `field` accepts gzip.
    static func acceptsGzip(cString field: UnsafePointer<CChar>) -> Bool {
        var count = 0
        while field[count] != 0 { count += 1 }
        return acceptsGzip(UnsafeRawBufferPointer(start: field, count: count))
    }

    /// Whether `field` accepts gzip.
    static func acceptsGzip(_ field: String) -> Bool {
        var field = field
        return field.withUTF8 { acceptsGzip(UnsafeRawBufferPointer($0)) }
    }

    /// A weight of zero: `0`, `0.`, `0.0`, `0.00`, `0.000`.
    private static func isZero(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let first = value.first, first == UInt8(ascii: "0") else { return false }
        return value.dropFirst().allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "0") }
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let letters = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        // Only letters fold: `| 0x20` would also turn a carriage return into `-`.
        for (byte, letter) in zip(bytes, letters) {
            let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if folded != letter { return false }
        }
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func isSeparatorOrSpace(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ",")
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";")
    }
}
