// Fuzz target: the CSV writer (`CSV.field`, as `catalog export` and `orders export` write each
// cell) against the reader the import uses (`CSV.records(in:)`, then `CSV.cellValue`).
//
// Built by Fuzz/run together with Sources/QuickCart/Operator/CSV.swift into one module. The
// input is records separated by 0x1E, each of fields separated by 0x1F (decoded as UTF-8, bad
// bytes replaced). Checked: writing the records and reading them back gives the same fields
// (a record that is one empty field is an empty line, which readers skip); no written cell
// starts, inside its quotes or not, with a character that makes a spreadsheet read a formula
// (`=`, `+`, `-`, `@`, tab, carriage return); reading never throws on what the writer wrote.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    guard !input.isEmpty else { return 0 }
    let records = input.split(separator: 0x1E, omittingEmptySubsequences: false).map { record in
        record.split(separator: 0x1F, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
    var lines: [String] = []
    for fields in records {
        let cells = fields.map(CSV.field)
        for cell in cells {
            let content = cell.hasPrefix("\"") ? cell.unicodeScalars.dropFirst() : cell.unicodeScalars[...]
            if let first = content.first {
                check(!["=", "+", "-", "@", "\t", "\r"].contains(first), "a live formula cell \(cell.debugDescription) for \(fields.debugDescription)")
            }
        }
        lines.append(cells.joined(separator: ","))
    }
    let text = lines.joined(separator: "\n") + "\n"
    let read: [[String]]
    do {
        read = try CSV.records(in: text).map { $0.fields.map(CSV.cellValue) }
    } catch {
        fail("the reader refused what the writer wrote: \(error.message) (line \(error.line)) in \(text.debugDescription)")
    }
    let expected = records.filter { $0 != [""] }
    check(read == expected, "wrote \(expected.debugDescription), read back \(read.debugDescription) from \(text.debugDescription)")
    return 0
}
