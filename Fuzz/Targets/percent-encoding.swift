// Fuzz target: MicroHTTP's PercentEncodingValidator, which decides whether a request target or
// an urlencoded form body is well formed before libmicrohttpd decodes it.
//
// Built by Fuzz/run together with Sources/MicroHTTP/*.swift and the other MicroHTTP targets into
// one module and executable (Fuzz/Support/MicroHTTPTargets.swift; the validator is
// internal). The first input byte picks the mode and how the rest is cut into pieces (a form body
// arrives in pieces of any size); the rest is the text. Checked:
// - the answer equals a plain restatement of the rule: every `%` starts an escape of exactly two
//   hex digits, `%00` is refused, and in a request target raw bytes below 0x21 and 0x7F are too;
// - feeding the text whole or in pieces gives the same answer;
// - `isWellFormedTarget` on the NUL-terminated text answers as the validator does up to the NUL;
// - `RawTarget`, given the text laid out as libmicrohttpd leaves a request line in its buffer
//   (target, NUL, version), accepts the whole target exactly when the rule does, so a raw NUL
//   inside it is refused however the rest looks; and its mark survives the trip through `con_cls`;
// - `PercentEncoding`: the text (decoded as UTF-8 with replacement characters) encodes to
//   unreserved characters and escapes only, and decodes back to itself; decoding the text gives
//   what a plain restatement gives (escapes of two hex digits, then UTF-8, else nil).

public func fuzzPercentEncoding(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let control = start[0]
    let text = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    let rejectsControlCharacters = control & 1 == 1

    var whole = PercentEncodingValidator(rejectsControlCharacters: rejectsControlCharacters)
    whole.feed(text)
    let expected = isWellFormed(text, rejectsControlCharacters: rejectsControlCharacters)
    check(whole.isComplete == expected, "validator says \(whole.isComplete), rule says \(expected)")
    check(!whole.isComplete || whole.isValid, "complete but not valid")

    // The same text in pieces: sizes cycle through 1...((control >> 1) % 8 + 1), with empty pieces.
    var pieces = PercentEncodingValidator(rejectsControlCharacters: rejectsControlCharacters)
    let longest = Int(control >> 1) % 8 + 1
    var offset = 0, size = 0
    while offset < text.count {
        size = size % longest + 1
        let end = min(offset + size, text.count)
        pieces.feed(UnsafeRawBufferPointer(rebasing: text[offset..<end]))
        pieces.feed(UnsafeRawBufferPointer(start: nil, count: 0))
        offset = end
    }
    check(pieces.isComplete == whole.isComplete && pieces.isValid == whole.isValid,
                 "fed in pieces of up to \(longest) the answer differs")

    // The request-target entry point reads up to the first NUL.
    var cString = Array(text)
    cString.append(0)
    let untilNUL = UnsafeRawBufferPointer(rebasing: text[..<(text.firstIndex(of: 0) ?? text.count)])
    let target = cString.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { PercentEncodingValidator.isWellFormedTarget($0.baseAddress!) }
    }
    check(target == isWellFormed(untilNUL, rejectsControlCharacters: true), "isWellFormedTarget disagrees")

    // The URI-log callback sees the target up to its first NUL; the access handler gets the
    // version, which starts one byte past the target's real end.
    var line = Array(text)
    line.append(0)
    line += Array("HTTP/1.1".utf8) + [0, 0]
    let (mark, wholeTarget) = line.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
            let url = chars.baseAddress!
            let mark = RawTarget(inspecting: url)
            return (mark, RawTarget(slot: mark.slotValue)?.isWellFormed(url: url, version: url + text.count + 1))
        }
    }
    check(RawTarget(slot: mark.slotValue) == mark, "the mark does not survive the slot")
    check(wholeTarget == isWellFormed(text, rejectsControlCharacters: true), "RawTarget says \(String(describing: wholeTarget)) for the whole target")

    let string = String(decoding: text, as: UTF8.self)
    let encoded = PercentEncoding.encodingAllButUnreserved(string)
    check(encoded.utf8.allSatisfy { isUnreserved($0) || $0 == UInt8(ascii: "%") || isHex($0) }, "encoded \(encoded.debugDescription) keeps a reserved byte")
    check(PercentEncoding.decoding(encoded) == string, "\(string.debugDescription) does not survive encoding")
    check(PercentEncoding.decoding(string) == decoded(Array(string.utf8)), "decoding \(string.debugDescription) disagrees with the rule")
    return 0
}

private func isHex(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
}

private func isUnreserved(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || Array("-._~".utf8).contains(byte)
}

/// Percent-decoding, restated: every `%` takes the next two hex digits, and the bytes must be UTF-8.
private func decoded(_ bytes: [UInt8]) -> String? {
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "%") else {
            result.append(bytes[index])
            index += 1
            continue
        }
        guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]),
              let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) else { return nil }
        result.append(value)
        index += 3
    }
    return String(validating: result, as: UTF8.self)
}

/// The rule, restated without state machines.
private func isWellFormed(_ text: UnsafeRawBufferPointer, rejectsControlCharacters: Bool) -> Bool {
    var index = 0
    while index < text.count {
        let byte = text[index]
        if byte == UInt8(ascii: "%") {
            guard index + 2 < text.count, isHex(text[index + 1]), isHex(text[index + 2]) else { return false }
            if text[index + 1] == UInt8(ascii: "0") && text[index + 2] == UInt8(ascii: "0") { return false }
            index += 3
        } else {
            if rejectsControlCharacters && (byte < 0x21 || byte == 0x7F) { return false }
            index += 1
        }
    }
    return true
}
