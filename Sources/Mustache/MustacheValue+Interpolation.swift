extension MustacheValue {
    /// Appends the value as `{{name}}` shows it: scalars as text, `.null`,
    /// lists and hashes as nothing (printing a container is never useful in a page).
    ///
    /// - Parameters:
    ///   - buffer: The UTF-8 output.
    ///   - escaped: Whether strings are HTML-escaped. Numbers and booleans
    ///     never contain characters that need it.
    func appendInterpolation(to buffer: inout [UInt8], escaped: Bool) {
        switch self {
        case .null, .array, .object:
            return
        case .bool(let flag):
            buffer.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .int(let number):
            appendDecimal(number, to: &buffer)
        case .double(let number):
            // Integral values read as whole numbers (JSON and JavaScript do the same);
            // the bound keeps them exactly representable and within Int.
            if number.rounded(.towardZero) == number, number.magnitude < 1e15 {
                appendDecimal(Int(number), to: &buffer)
            } else {
                buffer.append(contentsOf: number.description.utf8)
            }
        case .string(let string):
            if escaped {
                HTMLEscape.append(string, to: &buffer)
            } else {
                buffer.append(contentsOf: string.utf8)
            }
        }
    }
}

/// Writes decimal digits in place, avoiding a temporary String per number.
private func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    let start = buffer.count
    var magnitude = value.magnitude
    repeat {
        buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
        magnitude /= 10
    } while magnitude > 0
    buffer[start...].reverse()
}
