// Fuzz target: QuickCart's access-log line (`LogLine.access`) and the rule that makes any logged
// field printable (`LogLine.printable`), shared with the error lines.
//
// Built by Fuzz/run together with Sources/QuickCart/App/Support.swift into one module. The first
// input byte says how many of the following bytes are the method; the rest is the path; both are
// decoded as UTF-8 with replacement characters, as libmicrohttpd's text reaches a request. Checked:
// - the line ends in its only line break, and holds no control, format, separator, private-use
//   or unassigned character;
// - it has exactly seven space-separated fields, whatever the client, method and path hold; the
//   status field is `200`, or `200!unsent` for an answer not sent (odd counts stand for those);
// - client, method and path can be read back exactly from their fields (undoing `\\`, `\xHH` and
//   `\u{H…}`), unless clipped, when what is read back is the start of the original and ends in `…`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccessLog(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: start + 1, count: count - 1)
    let methodCount = min(Int(start[0]) % 48, input.count)
    let method = String(decoding: UnsafeBufferPointer(rebasing: input[..<methodCount]), as: UTF8.self)
    let path = String(decoding: UnsafeBufferPointer(rebasing: input[methodCount...]), as: UTF8.self)

    // The method's bytes stand for the client address too (only a trusted proxy's word decides
    // it, but the formatter must not rely on that).
    let sent = count % 2 == 0
    let line = LogLine.access(
        client: method, method: method, path: path, status: 200, bodyBytes: count, microseconds: UInt64(count) * 7, session: "-", sent: sent
    )
    check(line.hasSuffix("\n"), "no line break at the end")
    let body = line.dropLast()
    for scalar in body.unicodeScalars {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            fail("unprintable U+\(String(scalar.value, radix: 16)) in \(line.debugDescription)")
        default: break
        }
    }
    let fields = body.split(separator: " ", omittingEmptySubsequences: false)
    check(fields.count == 7, "\(fields.count) fields in \(line.debugDescription)")
    guard fields.count == 7 else { return 0 }
    if method.isEmpty {
        check(fields[0] == "-", "an unknown client is not written as -")
    } else {
        checkReadsBack(fields[0], original: method, limit: 64)
    }
    checkReadsBack(fields[1], original: method, limit: 32)
    checkReadsBack(fields[2], original: path, limit: 200)
    check(fields[3] == (sent ? "200" : "200!unsent"), "status field \(fields[3].debugDescription) for an answer \(sent ? "sent" : "not sent")")
    return 0
}

/// Undoes the escapes of `field` and compares with what was logged.
private func checkReadsBack(_ field: Substring, original: String, limit: Int) {
    let clipped = original.unicodeScalars.count > limit
    var escaped = Array(field.unicodeScalars)
    if clipped {
        check(escaped.last == "…", "a clipped field must end in …: \(field.debugDescription)")
        escaped.removeLast()
    }
    var read = String.UnicodeScalarView()
    var index = 0
    func hexValue(_ scalars: ArraySlice<Unicode.Scalar>) -> UInt32? {
        guard !scalars.isEmpty, scalars.count <= 8 else { return nil }
        return UInt32(String(String.UnicodeScalarView(scalars)), radix: 16)
    }
    while index < escaped.count {
        let scalar = escaped[index]
        guard scalar == "\\" else {
            read.append(scalar)
            index += 1
            continue
        }
        check(index + 1 < escaped.count, "a lone backslash at the end of \(field.debugDescription)")
        let kind = escaped[index + 1]
        if kind == "\\" {
            read.append("\\")
            index += 2
        } else if kind == "x" {
            check(index + 3 < escaped.count, "a short \\x escape in \(field.debugDescription)")
            let value = hexValue(escaped[(index + 2)...(index + 3)])
            check(value != nil, "a bad \\x escape in \(field.debugDescription)")
            read.append(Unicode.Scalar(value!)!)
            index += 4
        } else if kind == "u" {
            check(index + 2 < escaped.count && escaped[index + 2] == "{", "a bad \\u escape in \(field.debugDescription)")
            let close = escaped[(index + 3)...].firstIndex(of: "}")
            check(close != nil, "an unclosed \\u escape in \(field.debugDescription)")
            let value = hexValue(escaped[(index + 3)..<close!]).flatMap(Unicode.Scalar.init)
            check(value != nil, "a bad \\u escape in \(field.debugDescription)")
            read.append(value!)
            index = close! + 1
        } else {
            fail("an unknown escape \\\(kind) in \(field.debugDescription)")
        }
    }
    let expected = clipped ? String(String.UnicodeScalarView(original.unicodeScalars.prefix(limit))) : original
    check(String(read) == expected, "read back \(String(read).debugDescription), logged \(expected.debugDescription)")
}
