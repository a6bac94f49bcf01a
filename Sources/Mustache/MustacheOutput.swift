/// The growing byte buffer compiled templates render into: one per answer, written to by
/// every template and field of a page, then handed over as the body's bytes.
///
/// Appending is a bounds check and a copy (no uniqueness check, no per-append call into the
/// array's generic code), which is what a page of a few hundred small writes needs. Fields
/// declared with ``MustacheField/custom(_:)`` write here directly, so numbers and prices need
/// no intermediate string.
///
/// ```swift
/// let body: [UInt8] = MustacheOutput.bytes(capacity: lastPageSize) { output in
///     page.render(view, into: &output)
/// }
/// ```
public struct MustacheOutput: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    /// Whether `start` is this buffer's own allocation, rather than the storage of the array
    /// ``bytes(capacity:_:)`` is making.
    @usableFromInline var ownsStorage = true

    /// Creates an empty buffer with room for `capacity` bytes before it first grows.
    ///
    /// ```swift
    /// var output = MustacheOutput(capacity: 16 * 1024)
    /// ```
    ///
    /// - Parameter capacity: The bytes to reserve; a page's last size is a good guess.
    public init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        start = .allocate(capacity: self.capacity)
    }

    private init(borrowing storage: UnsafeMutableBufferPointer<UInt8>) {
        start = storage.baseAddress!
        capacity = storage.count
        ownsStorage = false
    }

    deinit {
        if ownsStorage { start.deallocate() }
    }

    /// Makes an array by writing into it: `body` renders straight into the array's storage,
    /// so the bytes are not copied once more at the end, as ``finish()`` copies them. Only
    /// when they outgrow `capacity` are they gathered elsewhere and copied once.
    ///
    /// ```swift
    /// let body = MustacheOutput.bytes(capacity: lastPageSize) { page.render(view, into: &$0) }
    /// ```
    ///
    /// - Parameters:
    ///   - capacity: The bytes to reserve; a page's last size is a good guess.
    ///   - body: Writes the bytes.
    /// - Returns: Everything `body` appended, in order.
    public static func bytes(capacity: Int, _ body: (inout MustacheOutput) -> Void) -> [UInt8] {
        var outgrown: [UInt8]?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(64, capacity)) { storage, initialized in
            var output = MustacheOutput(borrowing: storage)
            body(&output)
            if output.ownsStorage {
                outgrown = output.finish()
                initialized = 0
            } else {
                initialized = output.count
            }
        }
        return outgrown ?? bytes
    }

    /// The number of bytes written so far.
    ///
    /// ```swift
    /// output.byteCount   // 41_230
    /// ```
    public var byteCount: Int { count }

    /// The bytes written, as an array; the buffer is used up.
    ///
    /// ```swift
    /// let body = output.finish()
    /// ```
    ///
    /// - Returns: Everything appended, in order.
    public consuming func finish() -> [UInt8] {
        // An empty array is the standard library's shared empty storage, whose count
        // `unsafeUninitializedCapacity` would write (the same 0, but a race to ThreadSanitizer).
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
            bytes.baseAddress?.initialize(from: start, count: count)
            initialized = count
        }
    }

    /// Appends one byte.
    ///
    /// ```swift
    /// output.append(UInt8(ascii: "$"))
    /// ```
    @inlinable
    public mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toFit: 1) }
        start[count] = byte
        count += 1
    }

    /// Appends bytes as they are.
    ///
    /// ```swift
    /// bytes.withUnsafeBufferPointer { output.append($0) }
    /// ```
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toFit: bytes.count) }
        (start + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends text as UTF-8, not escaped.
    ///
    /// ```swift
    /// output.append("<svg…/>")
    /// ```
    @inlinable
    public mutating func append(_ text: String) {
        // Native strings are contiguous UTF-8, read in place; others are copied first.
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var text = text
            text.withUTF8 { append($0) }
        }
    }

    /// Appends text as UTF-8 with `&`, `<`, `>`, `"` and `'` replaced by entities.
    ///
    /// ```swift
    /// output.append(escaping: "Tea & cake")   // Tea &amp; cake
    /// ```
    @inlinable
    public mutating func append(escaping text: String) {
        // Native strings are contiguous UTF-8, read in place; others are copied first.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var text = text
            text.withUTF8 { appendEscaped($0) }
        }
    }

    /// Appends a whole number in decimal.
    ///
    /// ```swift
    /// output.append(decimal: -42)   // -42
    /// ```
    @inlinable
    public mutating func append(decimal value: Int) {
        if value >= 0, value < 10 {
            append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        appendDecimal(value)
    }

    /// Two digits per division, written backwards into room reserved for the longest number
    /// (19 digits and a sign): counts and prices are short, so this is a few steps.
    @usableFromInline
    mutating func appendDecimal(_ value: Int) {
        if capacity - count < 20 { grow(toFit: 20) }
        var digits = 1
        var magnitude = value.magnitude
        var bound: UInt = 10
        while magnitude >= bound, digits < 19 {
            digits += 1
            bound &*= 10
        }
        if value < 0 {
            start[count] = UInt8(ascii: "-")
            count += 1
        }
        let end = count + digits
        var position = end
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) * 2
            magnitude /= 100
            position -= 2
            start[position] = Self.digitPairs[pair]
            start[position + 1] = Self.digitPairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) * 2
            start[position - 2] = Self.digitPairs[pair]
            start[position - 1] = Self.digitPairs[pair + 1]
        } else {
            start[position - 1] = UInt8(ascii: "0") + UInt8(magnitude)
        }
        count = end
    }

    /// "00" to "99", two bytes each.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { (pair: Int) -> [UInt8] in
        let zero = UInt8(ascii: "0")
        return [zero + UInt8(pair / 10), zero + UInt8(pair % 10)]
    }

    @usableFromInline
    mutating func appendEscaped(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        var runStart = 0
        while true {
            // Copy the run up to the next character to escape in one go: most text has none.
            let next = Self.firstToEscape(in: base, count: source.count, from: runStart)
            append(UnsafeBufferPointer(start: base + runStart, count: next - runStart))
            guard next < source.count else { return }
            let entity: StaticString
            switch base[next] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            default: entity = "&#39;"
            }
            append(UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            runStart = next + 1
        }
    }

    /// The index of the first `&`, `<`, `>`, `"` or `'` at or after `start`, or `count`.
    /// Eight bytes at a time while none of them is one (SWAR: a byte equal to `c` is a zero
    /// byte of `word ^ c…c`, and `(v - 0x01…01) & ~v & 0x80…80` is non-zero when `v` has one).
    /// Three tests cover the five: `&` and `'` differ only in bit 0, `<` and `>` only in bit 1.
    @inline(__always)
    static func firstToEscape(in bytes: UnsafePointer<UInt8>?, count: Int, from start: Int) -> Int {
        guard let bytes else { return count }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones << 7
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let ampersandOrApostrophe = (word & (ones &* 0xFE)) ^ (ones &* 0x26)
            let angle = (word & (ones &* 0xFD)) ^ (ones &* 0x3C)
            let found = ((quote &- ones) & ~quote) | ((ampersandOrApostrophe &- ones) & ~ampersandOrApostrophe) | ((angle &- ones) & ~angle)
            if found & high != 0 { break }
            index += 8
        }
        while index < count, !needsEscaping(bytes[index]) { index += 1 }
        return index
    }

    /// Whether `byte` is one of `&`, `<`, `>`, `"` and `'`: all below 64, so one bit each
    /// in a mask, and one test lets letters, digits and all multi-byte UTF-8 through.
    @inline(__always)
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        let mask: UInt64 = 1 << UInt64(UInt8(ascii: "&")) | 1 << UInt64(UInt8(ascii: "<")) | 1 << UInt64(UInt8(ascii: ">"))
            | 1 << UInt64(UInt8(ascii: "\"")) | 1 << UInt64(UInt8(ascii: "'"))
        return byte < 64 && mask & (1 << UInt64(byte)) != 0
    }

    /// Makes room for `extra` more bytes, at least doubling, so appends stay amortised O(1).
    @usableFromInline
    mutating func grow(toFit extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: start, count: count)
        if ownsStorage { start.deallocate() }
        ownsStorage = true
        start = newStart
        capacity = newCapacity
    }
}
