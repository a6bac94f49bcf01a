/// HTML escaping straight into a UTF-8 output buffer.
enum HTMLEscape {
    /// Appends `string` with `&`, `<`, `>`, `"` and `'` replaced by entities,
    /// in a single pass that copies the unescaped runs between them in bulk.
    ///
    /// - Parameters:
    ///   - string: The text to escape.
    ///   - buffer: The output the escaped UTF-8 is appended to.
    static func append(_ string: String, to buffer: inout [UInt8]) {
        var string = string  // withUTF8 is mutating: it may first make the storage contiguous.
        string.withUTF8 { append($0, to: &buffer) }
    }

    private static func append(_ source: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        var runStart = 0
        for index in source.indices {
            let byte = source[index]
            // Every escaped character is ASCII at or below '>' (0x3E), so letters
            // and all multi-byte UTF-8 skip the switch.
            if byte > UInt8(ascii: ">") { continue }
            let entity: StaticString
            switch byte {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            if runStart < index {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            }
            // Entities are a few bytes: single appends beat a bulk append's setup.
            for offset in 0..<entity.utf8CodeUnitCount { buffer.append(entity.utf8Start[offset]) }
            runStart = index + 1
        }
        if runStart < source.count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
        }
    }
}
