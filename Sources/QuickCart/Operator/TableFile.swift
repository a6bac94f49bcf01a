/// An operator's table file, CSV with a header row or JSON (an array of objects), as the
/// catalog and the delivery methods are written: read whole, checked against its ``Schema``,
/// every problem reported with its line and field. What the values mean is the caller's.
enum TableFile {
    /// What one kind of file holds.
    struct Schema: Sendable {
        /// "catalog", "delivery": what messages call the file ("not a catalog file").
        let kind: String
        /// What the JSON form is called ("a JSON catalog is an array …").
        let jsonName: String
        /// "product", "delivery method": what one row is.
        let itemNoun: String
        let fields: [String]
        let requiredFields: Set<String>
        /// The columns a header must name to be this kind of file at all.
        let signature: [String]
        /// Fields a JSON number may give (else only strings).
        let numberFields: Set<String>
        /// Fields a JSON `true`/`false` may give.
        let flagFields: Set<String>
        let maximumItems: Int
        /// Why a file may list no more than ``maximumItems``, and what to do instead: the end of
        /// the message refusing a longer one.
        let maximumItemsAdvice: String
    }

    /// Something wrong in the file, where it is.
    struct Problem: Equatable, CustomStringConvertible {
        /// 1-based; `nil` for the file as a whole.
        let line: Int?
        /// The column (CSV) or member (JSON), when the problem is in one.
        let field: String?
        let message: String
        /// The object the problem is in ("product 2"), when its line does not tell it apart.
        var item: Item? = nil
        /// 1-based, where the text itself is wrong (a JSON syntax error).
        var column: Int? = nil

        var description: String {
            var place: [String] = []
            if let line { place.append("line \(line)") }
            if let column { place.append("column \(column)") }
            if let item { place.append(item.description) }
            if let field { place.append(field) }
            return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
        }
    }

    /// An object of a JSON array by its place: "product 2".
    struct Item: Equatable, CustomStringConvertible {
        let noun: String
        /// 1-based.
        let number: Int
        var description: String { "\(noun) \(number)" }
    }

    /// Every problem of a file that cannot be imported.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let problems: [Problem]
        var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    enum Format: String, CaseIterable {
        case csv, json
    }

    /// One record's values by field name, each with its line, and the line the record starts on.
    struct Record {
        let line: Int
        var values: [String: (value: String, line: Int)] = [:]
        /// Required fields whose column the file lacks (or whose JSON value had the wrong type):
        /// reported once, not again as missing.
        var absent: Set<String> = []
        /// The object's place in a JSON array ("product 2") when the file has several objects on
        /// one line (minified), where a line alone would not say which one is wrong.
        var item: Item? = nil
    }

    static let maximumBytes = 16 << 20

    /// The records of a whole file, with the problems of its form in `problems`; a failure
    /// when nothing of it can be read (too large, binary, not UTF-8, empty, too many rows).
    static func records(_ bytes: [UInt8], schema: Schema, problems: inout [Problem]) -> Result<[Record], Failure> {
        guard bytes.count <= maximumBytes else {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "the file is larger than \(maximumBytes >> 20) MB")]))
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.contains(0) {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "this is not a CSV or JSON file: it holds binary data")]))
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            return .failure(Failure(problems: invalidUTF8Lines(body)))
        }
        guard text.contains(where: { !$0.isWhitespace }) else {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "the file is empty")]))
        }
        let first = text.first { !$0.isWhitespace }
        let records = first == "[" || first == "{" ? jsonRecords(text, schema: schema, problems: &problems) : csvRecords(text, schema: schema, problems: &problems)
        if records.count > schema.maximumItems {
            return .failure(Failure(problems: [Problem(
                line: nil, field: nil,
                message: "the file lists \(records.count) \(schema.itemNoun)s, more than the \(schema.maximumItems) an import takes: \(schema.maximumItemsAdvice)"
            )]))
        }
        return .success(records)
    }

    /// A whole file read and checked: its records, each made a row by `check` (which reports what
    /// is wrong with it in `problems`), no two rows sharing the `keyField` value `key` gives them.
    static func rows<Row>(
        _ bytes: [UInt8], schema: Schema, keyField: String, key: (Row) -> String, check: (Record, inout [Problem]) -> Row?
    ) -> Result<[Row], Failure> {
        var problems: [Problem] = []
        let records: [Record]
        switch self.records(bytes, schema: schema, problems: &problems) {
        case .success(let read): records = read
        case .failure(let failure): return .failure(failure)
        }
        var rows: [Row] = []
        var keyPlaces: [String: String] = [:]
        for record in records {
            let checked = problems.count
            let row = check(record, &problems)
            for index in checked..<problems.count where problems[index].item == nil { problems[index].item = record.item }
            guard let row else { continue }
            let rowKey = key(row)
            if let earlier = keyPlaces[rowKey] {
                problems.append(Problem(line: record.line, field: keyField, message: "“\(rowKey)” is already used \(earlier)", item: record.item))
            } else {
                keyPlaces[rowKey] = record.item.map { "by \($0)" } ?? "on line \(record.line)"
            }
            rows.append(row)
        }
        return result(rows, problems: problems, schema: schema)
    }

    /// The rows checked from a file's records, or its problems in file order (problems of one
    /// line in the order of its fields, of a minified file's line in the order of its objects); a
    /// file of no rows is a problem too.
    static func result<Row>(_ rows: [Row], problems: [Problem], schema: Schema) -> Result<[Row], Failure> {
        var problems = problems
        if rows.isEmpty, problems.isEmpty {
            problems.append(Problem(line: nil, field: nil, message: "the file lists no \(schema.itemNoun)s"))
        }
        guard problems.isEmpty else {
            let ordered = problems.enumerated().sorted {
                ($0.element.line ?? 0, $0.element.item?.number ?? 0, $0.offset) < ($1.element.line ?? 0, $1.element.item?.number ?? 0, $1.offset)
            }
            return .failure(Failure(problems: ordered.map(\.element)))
        }
        return .success(rows)
    }

    /// A record's `field`, trimmed; a problem when `required` and empty, longer than
    /// `maximum` characters, or holding a control character.
    static func text(
        _ field: String, of record: [String: (value: String, line: Int)], line: Int, required: Bool, maximum: Int?, problems: inout [Problem]
    ) -> String {
        let value = (record[field]?.value ?? "").trimmingWhitespace(newlines: false)
        let at = record[field]?.line ?? line
        if required, value.isEmpty {
            problems.append(Problem(line: at, field: field, message: "missing"))
        } else if let maximum, value.count > maximum {
            problems.append(Problem(line: at, field: field, message: "longer than \(maximum) characters"))
        } else if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problems.append(Problem(line: at, field: field, message: "holds a line break or other control character"))
        }
        return value
    }

    // MARK: - Writing

    /// A CSV file: the header of `fields`, then one line per row (cells a spreadsheet would
    /// run as formulas written as text, ``CSV/field(_:)``).
    static func csvText(fields: [String], rows: [[String]]) -> String {
        ([fields.joined(separator: ",")] + rows.map { $0.map(CSV.field).joined(separator: ",") }).joined(separator: "\n") + "\n"
    }

    /// A JSON array of one object per line, each of members already written as JSON values.
    static func jsonText(_ objects: [[(name: String, json: String)]]) -> String {
        let lines = objects.map { members in "  {" + members.map { "\"\($0.name)\": \($0.json)" }.joined(separator: ", ") + "}" }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    // MARK: - Reading the two formats

    private static func csvRecords(_ text: String, schema: Schema, problems: inout [Problem]) -> [Record] {
        let records: [CSV.Record]
        do {
            records = try CSV.records(in: text)
        } catch {
            // A spreadsheet's semicolon export often quotes every cell ("slug";"name"), which
            // is no CSV with commas at all: say what it is, as for the unquoted header.
            let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }.lowercased()
            let cells = [firstLine.replacingScalars { $0 == "\"" ? "" : nil }]
            let said = error.line == 1 ? Self.otherSeparator(cells, schema: schema) : nil
            problems.append(Problem(line: error.line, field: nil, message: said ?? "not valid CSV: \(error.message)"))
            return []
        }
        guard let header = records.first else { return [] }
        let names = header.fields.map { $0.trimmingWhitespace(newlines: false).lowercased() }
        if !schema.signature.allSatisfy(names.contains) {
            problems.append(Problem(line: 1, field: nil, message: Self.notAHeader(names, schema: schema)))
            return []
        }
        var seen: Set<String> = []
        for (index, name) in names.enumerated() {
            if !schema.fields.contains(name) {
                problems.append(Problem(line: 1, field: "column \(index + 1)", message: "unknown column “\(name)”; the columns are \(schema.fields.joined(separator: ", "))"))
            } else if !seen.insert(name).inserted {
                problems.append(Problem(line: 1, field: "column \(index + 1)", message: "the column “\(name)” appears twice"))
            }
        }
        let absent = schema.requiredFields.subtracting(names)
        for missing in absent.sorted() {
            problems.append(Problem(line: 1, field: nil, message: "the required column “\(missing)” is missing"))
        }
        // The rows are still checked, against the known columns (the first of a name twice),
        // so one file's run shows every problem; a missing column is reported once, above.
        let known = Dictionary(names.enumerated().filter { schema.fields.contains($0.element) }.map { ($0.element, $0.offset) }, uniquingKeysWith: min)
        return records.dropFirst().compactMap { record in
            guard record.fields.count == names.count else {
                problems.append(Problem(
                    line: record.line, field: nil,
                    message: "\(record.fields.count) fields where the header names \(names.count) (a comma inside a value needs quotes)"
                ))
                return nil
            }
            var values = Record(line: record.line, absent: absent)
            for (name, index) in known { values.values[name] = (CSV.cellValue(record.fields[index]), record.line) }
            return values
        }
    }

    /// Why a first line of `names` is no header of `schema`: a file whose columns are
    /// separated by semicolons (a spreadsheet's CSV in many European languages) or tabs is told
    /// so, with what to do.
    private static func notAHeader(_ names: [String], schema: Schema) -> String {
        otherSeparator(names, schema: schema) ?? "this is not a \(schema.kind) file: its first line must be a CSV header naming the columns (\(schema.requiredFields.sorted().joined(separator: ", ")) at least), or the file a JSON array of objects"
    }

    /// What to say of a first line read as the cells `names` that is a header with semicolons
    /// or tabs between its columns; `nil` when it is none.
    private static func otherSeparator(_ names: [String], schema: Schema) -> String? {
        // Excel's first line naming the separator ("sep=;") comes before the header.
        if names.count == 1, names[0].hasPrefix("sep="), names[0] != "sep=," {
            return "this file's first line (“\(names[0])”) names another separator than commas; QuickCart reads commas: save it again as “CSV UTF-8 (comma delimited)”, or as JSON"
        }
        for (separator, said) in [(";", "semicolons"), ("\t", "tabs")] where names.count == 1 {
            let split = names[0].split(separator: separator, omittingEmptySubsequences: false).map { $0.trimmingWhitespace(newlines: false) }
            if schema.signature.allSatisfy(split.contains) {
                return "this file separates its columns with \(said); QuickCart reads commas: save it again as “CSV UTF-8 (comma delimited)”, or as JSON"
            }
        }
        return nil
    }

    private static func jsonRecords(_ text: String, schema: Schema, problems: inout [Problem]) -> [Record] {
        let document: JSONText
        do {
            document = try JSONText.parse(text)
        } catch {
            problems.append(Problem(line: error.line, field: nil, message: "not valid JSON: \(error.message)", column: error.column))
            return []
        }
        guard case .array(let elements, _) = document else {
            let first = schema.signature.first ?? "name"
            problems.append(Problem(
                line: document.line, field: nil, message: "a JSON \(schema.jsonName) is an array of \(schema.itemNoun) objects: [{\"\(first)\": …}, …]"
            ))
            return []
        }
        // Several objects on one line (a minified file): problems name the object too.
        let minified = Set(elements.map(\.line)).count < elements.count
        return elements.enumerated().compactMap { index, element in
            let item = minified ? Item(noun: schema.itemNoun, number: index + 1) : nil
            guard case .object(let members, let line) = element else {
                problems.append(Problem(line: element.line, field: nil, message: "each element of the array must be an object", item: item))
                return nil
            }
            var values = Record(line: line, item: item)
            for member in members {
                let name = member.name
                // An unknown or repeated member is reported, and the object's other members
                // still checked, so one run shows every problem.
                guard schema.fields.contains(name) else {
                    problems.append(Problem(line: member.line, field: name, message: "unknown field “\(name)”; the fields are \(schema.fields.joined(separator: ", "))", item: item))
                    continue
                }
                guard values.values[name] == nil else {
                    problems.append(Problem(line: member.line, field: name, message: "the field appears twice in one object", item: item))
                    continue
                }
                switch member.value {
                case .string(let text, _): values.values[name] = (text, member.line)
                case .number(let text, _) where schema.numberFields.contains(name): values.values[name] = (text, member.line)
                case .bool(let flag, _) where schema.flagFields.contains(name): values.values[name] = (flag ? "true" : "false", member.line)
                case .null where !schema.requiredFields.contains(name): break
                default:
                    let kind = schema.numberFields.contains(name) ? "a string or number like \"24.50\"" : schema.flagFields.contains(name) ? "true or false" : "a string"
                    problems.append(Problem(line: member.line, field: name, message: "must be \(kind)", item: item))
                    // Reported here: the row's check must not call it missing too.
                    values.absent.insert(name)
                }
            }
            // A missing required field is reported by the check of the row, at the object's line.
            return values
        }
    }

    /// The lines that are not UTF-8, each as a problem.
    private static func invalidUTF8Lines(_ bytes: ArraySlice<UInt8>) -> [Problem] {
        var problems: [Problem] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where String(validating: line, as: UTF8.self) == nil {
            problems.append(Problem(line: index + 1, field: nil, message: "not UTF-8 text (save the file as UTF-8)"))
            if problems.count == 20 {
                problems.append(Problem(line: nil, field: nil, message: "… and maybe more lines that are not UTF-8"))
                break
            }
        }
        return problems
    }
}
