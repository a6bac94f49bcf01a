// Fuzz target: MicroHTTP's AcceptEncoding, which reads whether a client takes gzip on the static
// fast path, byte by byte and without allocating.
//
// Built by Fuzz/run together with Sources/MicroHTTP/*.swift and the other MicroHTTP targets into
// one module and executable (Fuzz/Support/MicroHTTPTargets.swift). The input is the
// field's value. Checked:
// - the answer equals a plain restatement of the rule built on splitting strings: elements
//   split at commas, parameters at semicolons, spaces and tabs trimmed; `gzip` or `x-gzip`
//   (any case) decide when listed, else `*`, else no; a `q` parameter (any case) whose value is
//   `0` followed only by dots and zeros refuses; the last listing of a coding wins;
// - the C-string entry point agrees, up to the first NUL.

public func fuzzAcceptEncoding(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let field = UnsafeRawBufferPointer(start: start, count: count)
    let answer = AcceptEncoding.acceptsGzip(field)
    let expected = rule(Array(field))
    check(answer == expected, "acceptsGzip says \(answer), the rule says \(expected) for \(String(decoding: field, as: UTF8.self).debugDescription)")

    let untilNUL = Array(field.prefix { $0 != 0 })
    var cString = untilNUL.map { CChar(bitPattern: $0) }
    cString.append(0)
    let viaCString = cString.withUnsafeBufferPointer { AcceptEncoding.acceptsGzip(cString: $0.baseAddress!) }
    check(viaCString == rule(untilNUL), "the C-string entry point disagrees")
    return 0
}

private func rule(_ bytes: [UInt8]) -> Bool {
    func trimmed(_ part: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var part = part
        while let first = part.first, first == 0x20 || first == 0x09 { part.removeFirst() }
        while let last = part.last, last == 0x20 || last == 0x09 { part.removeLast() }
        return part
    }
    func lowercased(_ part: ArraySlice<UInt8>) -> [UInt8] {
        part.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
    var gzip: Bool?
    var any: Bool?
    for element in bytes.split(separator: 0x2C, omittingEmptySubsequences: false) {
        // The coding ends at the first space, tab or semicolon; what follows up to a semicolon is ignored.
        let head = trimmed(element)
        let codingEnd = head.firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x3B } ?? head.endIndex
        let coding = lowercased(head[head.startIndex..<codingEnd])
        var acceptable = true
        for parameter in head[codingEnd...].split(separator: 0x3B, omittingEmptySubsequences: false).dropFirst() {
            let parameter = trimmed(parameter)
            guard parameter.count >= 2, parameter.first! | 0x20 == UInt8(ascii: "q"),
                  parameter[parameter.startIndex + 1] == UInt8(ascii: "=") else { continue }
            let valueStart = parameter.startIndex + 2
            let valueEnd = parameter[valueStart...].firstIndex { $0 == 0x20 || $0 == 0x09 } ?? parameter.endIndex
            let value = parameter[valueStart..<valueEnd]
            acceptable = !(value.first == UInt8(ascii: "0") && value.dropFirst().allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "0") })
        }
        if coding == Array("gzip".utf8) || coding == Array("x-gzip".utf8) {
            gzip = acceptable
        } else if coding == [UInt8(ascii: "*")] {
            any = acceptable
        }
    }
    return gzip ?? any ?? false
}
