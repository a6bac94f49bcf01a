// Fuzz target: JSONText.parse, the strict reader of the API's request bodies (and of catalog
// files), and JSONWriter, which writes the API's answers.
//
// Built by Fuzz/run together with Sources/QuickCart/Operator/JSONText.swift and
// Sources/QuickCart/Features/API/JSONWriter.swift into one module. The input is any bytes, read
// as UTF-8 (bad bytes replaced). Checked, besides not crashing or recursing without bound: when
// it parses, the value written again by JSONWriter (strings escaped by it, numbers as their
// text) parses back to the same value, and the written text holds no raw control character.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONText(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let value = try? JSONText.parse(text) else { return 0 }
    var json = JSONWriter()
    write(value, into: &json)
    check(!json.bytes.contains { $0 < 0x20 }, "a raw control character written for \(text.debugDescription)")
    let written = String(decoding: json.bytes, as: UTF8.self)
    guard let again = try? JSONText.parse(written) else { fail("\(written.debugDescription) does not parse, from \(text.debugDescription)") }
    check(same(value, again), "\(text.debugDescription) read back differently from \(written.debugDescription)")
    return 0
}

private func write(_ value: JSONText, into json: inout JSONWriter) {
    switch value {
    case .object(let members, _):
        // Names through the string escaper too: JSONWriter's own field names are fixed ASCII.
        json.array { json in
            for member in members {
                json.string(member.name)
                write(member.value, into: &json)
            }
        }
    case .array(let elements, _): json.array { json in for element in elements { write(element, into: &json) } }
    case .string(let text, _): json.string(text)
    case .number(let text, _): json.raw(Array(text.utf8))
    case .bool(let flag, _): json.bool(flag)
    case .null: json.null()
    }
}

/// Whether `written` (objects as arrays of name, value, …) holds what `original` holds.
private func same(_ original: JSONText, _ written: JSONText) -> Bool {
    switch (original, written) {
    case (.object(let members, _), .array(let elements, _)):
        guard elements.count == members.count * 2 else { return false }
        return zip(members.indices, members).allSatisfy { index, member in
            if case .string(let name, _) = elements[index * 2], name == member.name { return same(member.value, elements[index * 2 + 1]) }
            return false
        }
    case (.array(let a, _), .array(let b, _)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    case (.string(let a, _), .string(let b, _)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.number(let a, _), .number(let b, _)): return a == b
    case (.bool(let a, _), .bool(let b, _)): return a == b
    case (.null, .null): return true
    default: return false
    }
}
