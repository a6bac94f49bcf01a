extension String {
    /// `bytes` as a string, or `nil` when they are not UTF-8. Text in HTTP is mostly ASCII,
    /// which needs no validation beyond a look at each byte, and String's decoding initializer
    /// is its fast path; `String(validating:as:)` costs several times more per call.
    init?(utf8Bytes bytes: UnsafeBufferPointer<UInt8>) {
        if Self.isASCII(bytes) {
            self = String(decoding: bytes, as: UTF8.self)
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self = text
        } else {
            return nil
        }
    }

    /// Whether no byte has its high bit set, checked eight bytes at a time.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if base[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }
}
