/// Reads a complete `application/x-www-form-urlencoded` body into its fields the way
/// libmicrohttpd 0.9.75's POST processor reads one handed over in a single piece, without
/// its per-request allocation, zeroed key buffer and callback per field.
///
/// The body's escapes have been checked already (complete, hexadecimal, no `%00`); a body with
/// a raw NUL byte is left to libmicrohttpd, which ends C strings there.
///
/// The rules, libmicrohttpd's: fields are separated by `&` (empty ones are skipped); in a name
/// and a value `+` is a space, then `%HH` is its byte; a name without `=` has an empty value,
/// except the last one, which is dropped; a CR or LF ends the form, and only more of them may
/// follow; an empty name before `=`, a second `=` in a field, or a raw name of 1028 bytes or more
/// make the body malformed.
enum URLEncodedForm {
    /// Why a body gave no fields.
    enum Failure: Error, Equatable {
        /// Not a form libmicrohttpd reads.
        case malformed
        /// More fields than allowed; the limit was reached before anything malformed.
        case tooManyFields
        /// A decoded name or value is not UTF-8, and the body is otherwise well formed.
        case notUTF8
    }

    /// libmicrohttpd's key buffer: the 1024 bytes asked for, plus the 4 it adds.
    static let maximumNameLength = 1027

    /// The fields of `body`, in order.
    static func fields(in body: UnsafeBufferPointer<UInt8>, maximumFields: Int) -> Result<[Parameters.Pair], Failure> {
        var pairs: [Parameters.Pair] = []
        var fieldCount = 0
        var isUTF8 = true
        var scratch: [UInt8] = []
        var index = 0
        let end = body.count

        /// Adds one field; `nil` when it is one too many.
        func add(name: Range<Int>, value: Range<Int>) -> Failure? {
            guard fieldCount < maximumFields else { return .tooManyFields }
            fieldCount += 1
            if isUTF8, let name = decoded(body, name, &scratch), let value = decoded(body, value, &scratch) {
                pairs.append((name: name, value: value))
            } else {
                isUTF8 = false
            }
            return nil
        }

        /// What follows a CR or LF: only more of them.
        func rest(from index: Int) -> Result<[Parameters.Pair], Failure> {
            guard body[index...].allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }) else { return .failure(.malformed) }
            return isUTF8 ? .success(pairs) : .failure(.notUTF8)
        }

        while index < end {
            switch body[index] {
            case UInt8(ascii: "="): return .failure(.malformed)
            case UInt8(ascii: "&"):
                index += 1
                continue
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"): return rest(from: index)
            default: break
            }
            let nameStart = index
            while index < end, !isDelimiter(body[index]) { index += 1 }
            let name = nameStart..<index
            guard name.count <= maximumNameLength else { return .failure(.malformed) }
            guard index < end else { break }
            if body[index] != UInt8(ascii: "=") {
                if let failure = add(name: name, value: index..<index) { return .failure(failure) }
                if body[index] == UInt8(ascii: "&") {
                    index += 1
                    continue
                }
                return rest(from: index)
            }
            index += 1
            let valueStart = index
            while index < end, !isDelimiter(body[index]) { index += 1 }
            if index < end, body[index] == UInt8(ascii: "=") { return .failure(.malformed) }
            if let failure = add(name: name, value: valueStart..<index) { return .failure(failure) }
            guard index < end else { break }
            if body[index] == UInt8(ascii: "&") {
                index += 1
                continue
            }
            return rest(from: index)
        }
        return isUTF8 ? .success(pairs) : .failure(.notUTF8)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    /// The text of `range`, `+` as a space and escapes decoded; `nil` when it is not UTF-8.
    private static func decoded(_ body: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ scratch: inout [UInt8]) -> String? {
        let raw = UnsafeBufferPointer(rebasing: body[range])
        guard raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(utf8Bytes: raw) }
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "%"), index + 2 < raw.count, let high = PercentEncoding.hexValue(raw[index + 1]),
               let low = PercentEncoding.hexValue(raw[index + 2]) {
                scratch.append(high << 4 | low)
                index += 3
            } else {
                scratch.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return scratch.withUnsafeBufferPointer(String.init(utf8Bytes:))
    }
}
