/// Comma-separated values as RFC 4180 writes them: fields separated by commas, records by
/// CRLF or LF, a field in double quotes may hold commas, line breaks and doubled quotes.
enum CSV {
    /// One record, with the line of the file it starts on (1-based).
    struct Record {
        let line: Int
        var fields: [String]
    }

    /// A place the text breaks the format.
    struct Failure: Error, Equatable {
        let line: Int
        let message: String
    }

    /// The records of `text`; completely empty lines are skipped.
    /// - Throws: ``Failure`` at the first place the text is not CSV.
    static func records(in text: String) throws(Failure) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        var quoteOpenedOn = 1
        var atFieldStart = true
        let bytes = Array(text.utf8)
        var index = 0

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
            atFieldStart = true
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        continue
                    }
                    inQuotes = false
                    index += 1
                    // After the closing quote only a separator or the end of the record may follow.
                    if index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[index]) {
                        throw Failure(line: line, message: "text follows a closing quote; a quote inside a quoted field is written twice (\"\")")
                    }
                    continue
                }
                if byte == UInt8(ascii: "\n") { line += 1 }
                field.append(byte)
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                index += 1
                endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\""):
                guard atFieldStart, !fieldWasQuoted else {
                    throw Failure(line: line, message: "a quote inside an unquoted field; put the whole field in quotes and write the quote twice (\"\")")
                }
                inQuotes = true
                fieldWasQuoted = true
                quoteOpenedOn = line
                atFieldStart = false
            default:
                field.append(byte)
                atFieldStart = false
            }
            index += 1
        }
        if inQuotes {
            throw Failure(line: quoteOpenedOn, message: "a quoted field is never closed")
        }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
        return records
    }

    /// A field as CSV writes it: quoted when it holds a comma, quote, line break or leading or
    /// trailing space. A value a spreadsheet would run as a formula (one starting with `=`, `+`,
    /// `-`, `@`, a tab or a carriage return, as OWASP lists them) is written with a `'` before
    /// it, and quoted, so it shows as text; so is one already starting with `'`, so that
    /// ``cellValue(_:)`` can take exactly one `'` off again and an import reads its own export back.
    static func field(_ value: String) -> String {
        if let first = value.unicodeScalars.first, formulaStarts.contains(first) || first == "'" {
            return quoted("'" + value)
        }
        // Scalars, not characters: "\r\n" is one Character and would slip past a check for "\n".
        // U+2028 and U+2029 end lines for readers that split on every Unicode line break.
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" }
            || value.first == " " || value.last == " "
        return needsQuotes ? quoted(value) : value
    }

    /// `value` in double quotes, each quote inside written twice: scalar by scalar, since a
    /// quote followed by a combining mark is one Character, which replacing `"` would miss.
    private static func quoted(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in value.unicodeScalars {
            result.append(scalar)
            if scalar == "\"" { result.append(scalar) }
        }
        result.append("\"")
        return String(result)
    }

    /// What a field read from a file means: a `'` that ``field(_:)`` put before a formula's
    /// first character (or before another `'`) is taken off; any other value is as written.
    static func cellValue(_ field: String) -> String {
        let scalars = field.unicodeScalars
        guard scalars.first == "'", let second = scalars.dropFirst().first, formulaStarts.contains(second) || second == "'" else {
            return field
        }
        return String(field.unicodeScalars.dropFirst())
    }

    /// The first characters that make a spreadsheet read a cell as a formula.
    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}
