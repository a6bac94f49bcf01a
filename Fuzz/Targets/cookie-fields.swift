// Fuzz target: SessionCookie.soleValue(named:in:), which picks the session cookie out of a
// request's Cookie fields and refuses duplicates.
//
// Built by Fuzz/run together with Sources/QuickCart/Core/Sessions/SessionCookie.swift into one
// module. The input's first line is the cookie name; each further line is one Cookie field (a
// field never holds a line feed). Checked: the answer equals a plain restatement of the rule on
// the fields' UTF-8 bytes: pairs split at `;`, each at its first `=`, spaces and tabs trimmed
// around name and value; exactly one pair whose name equals the name byte for byte gives its
// value; none or more than one gives nil.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookieFields(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let lines = UnsafeBufferPointer(start: start, count: count)
        .split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard let name = lines.first else { return 0 }
    let fields = Array(lines.dropFirst())
    let answer = SessionCookie.soleValue(named: name, in: fields).map { Array($0.utf8) }
    let expected = rule(name: Array(name.utf8), fields: fields.map { Array($0.utf8) })
    check(answer == expected, "soleValue says \(describe(answer)), the rule says \(describe(expected)) for name \(name.debugDescription) in \(fields.debugDescription)")
    return 0
}

private func rule(name: [UInt8], fields: [[UInt8]]) -> [UInt8]? {
    func trimmed(_ part: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var part = part
        while let first = part.first, first == 0x20 || first == 0x09 { part.removeFirst() }
        while let last = part.last, last == 0x20 || last == 0x09 { part.removeLast() }
        return part
    }
    var values: [[UInt8]] = []
    for field in fields {
        for pair in field.split(separator: 0x3B, omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: 0x3D) else { continue }
            if Array(trimmed(pair[..<equals])) == name { values.append(Array(trimmed(pair[(equals + 1)...]))) }
        }
    }
    return values.count == 1 ? values[0] : nil
}

private func describe(_ value: [UInt8]?) -> String {
    value.map { String(decoding: $0, as: UTF8.self).debugDescription } ?? "nil"
}
