import FoundationEssentials

/// The operator's catalog file: CSV with a header row, or JSON (an array of objects), one
/// product per row or object.
///
/// | field | required | what |
/// | --- | --- | --- |
/// | `slug` | yes | lower-case letters, digits and single hyphens; imports match products by it |
/// | `name` | yes | up to 120 characters |
/// | `summary` | no | one line, up to 300 characters |
/// | `category` | yes | up to 60 characters |
/// | `price` | yes | dollars with up to two decimals: `24.50`, `1200` |
/// | `image` | no | a JPEG, PNG or WebP file name in the media folder |
/// | `icon` | no | a line icon of `Public/icons/` (without `.svg`), shown when there is no photo |
/// | `featured` | no | `true`/`false` (also `yes`/`no`, `1`/`0`); default false |
/// | `active` | no | the same; default true: an inactive product is kept but not sold |
///
/// The whole file is read before anything is written: ``read(_:context:)`` returns every
/// problem it finds, each with its line and field, or the rows when there are none.
enum CatalogFile {
    /// One product as the file describes it.
    struct Row: Equatable {
        let line: Int
        var slug: String
        var name: String
        var summary: String
        var category: String
        var price: Money
        /// The file name in the media folder, if any.
        var image: String?
        /// `nil` when the file names none (see ``CatalogFile/entries(_:images:stored:)``).
        var icon: String?
        var isFeatured: Bool
        var isActive: Bool
    }

    /// Something wrong in the file, where it is.
    struct Problem: Equatable, CustomStringConvertible {
        /// 1-based; `nil` for the file as a whole.
        let line: Int?
        /// The column (CSV) or member (JSON), when the problem is in one.
        let field: String?
        let message: String

        var description: String {
            var place: [String] = []
            if let line { place.append("line \(line)") }
            if let field { place.append(field) }
            return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
        }
    }

    enum Format: String, CaseIterable {
        case csv, json
    }

    /// What the checks need to know beyond the file.
    struct Context: Sendable {
        /// Whether a file of this name is in the media folder.
        var hasMediaFile: @Sendable (String) -> Bool
        /// The line icons there are; `nil` accepts any well-formed name.
        var knownIcons: Set<String>?
        /// Why an image file in the media folder cannot be used (damaged, too large, …), or `nil`.
        var imageProblem: @Sendable (String) -> String? = { _ in nil }
        /// The media folder's path and whether it exists, for the message about a missing photo.
        var mediaFolder: (path: String, exists: Bool)?
    }

    static let fields = ["slug", "name", "summary", "category", "price", "image", "icon", "featured", "active"]
    static let requiredFields: Set<String> = ["slug", "name", "category", "price"]
    static let maximumBytes = 16 << 20
    static let maximumProducts = 10_000
    static let maximumLengths = ["slug": 80, "name": 120, "summary": 300, "category": 60, "image": 200, "icon": 40]
    /// Prices up to $1,000,000.00.
    static let maximumPriceCents: Int64 = 100_000_000
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// Reads and checks a whole catalog file.
    /// - Returns: The rows in file order, or every problem found (never both).
    static func read(_ bytes: [UInt8], context: Context) -> Result<[Row], Failure> {
        var problems: [Problem] = []
        guard bytes.count <= maximumBytes else {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "the file is larger than \(maximumBytes >> 20) MB")]))
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.contains(0) {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "this is not a CSV or JSON file: it holds binary data")]))
        }
        let text: String
        if let decoded = String(validating: body, as: UTF8.self) {
            text = decoded
        } else {
            return .failure(Failure(problems: invalidUTF8Lines(body)))
        }
        guard text.contains(where: { !$0.isWhitespace }) else {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "the file is empty")]))
        }
        let first = text.first { !$0.isWhitespace }
        let records: [Fields]
        if first == "[" || first == "{" {
            records = jsonRecords(text, problems: &problems)
        } else {
            records = csvRecords(text, problems: &problems)
        }
        if records.count > maximumProducts {
            return .failure(Failure(problems: [Problem(line: nil, field: nil, message: "more than \(maximumProducts) products")]))
        }

        var rows: [Row] = []
        var slugLines: [String: Int] = [:]
        for record in records {
            let line = record.line
            if let row = check(record.values, line: line, absent: record.absent, context: context, problems: &problems) {
                if let earlier = slugLines[row.slug] {
                    problems.append(Problem(line: line, field: "slug", message: "“\(row.slug)” is already used on line \(earlier)"))
                } else {
                    slugLines[row.slug] = line
                }
                rows.append(row)
            }
        }
        if records.isEmpty, problems.isEmpty {
            problems.append(Problem(line: nil, field: nil, message: "the file lists no products"))
        }
        guard problems.isEmpty else {
            // In file order; problems of one line keep the order of its fields.
            let ordered = problems.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            return .failure(Failure(problems: ordered.map(\.element)))
        }
        return .success(rows)
    }

    /// One record's values by field name, each with its line, and the line the record starts on.
    private struct Fields {
        let line: Int
        var values: [String: (value: String, line: Int)] = [:]
        /// Required fields whose column the file lacks: reported once for the file, not per row.
        var absent: Set<String> = []
    }

    /// Every problem of a file that cannot be imported.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let problems: [Problem]
        var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    // MARK: - Reading the two formats

    private static func csvRecords(_ text: String, problems: inout [Problem]) -> [Fields] {
        let records: [CSV.Record]
        do {
            records = try CSV.records(in: text)
        } catch {
            problems.append(Problem(line: error.line, field: nil, message: "not valid CSV: \(error.message)"))
            return []
        }
        guard let header = records.first else { return [] }
        let names = header.fields.map { $0.trimmingWhitespace(newlines: false).lowercased() }
        if !names.contains("slug") || !names.contains("price") {
            problems.append(Problem(
                line: 1, field: nil,
                message: "this is not a catalog file: its first line must be a CSV header naming the columns (\(requiredFields.sorted().joined(separator: ", ")) at least), or the file a JSON array of objects"
            ))
            return []
        }
        var seen: Set<String> = []
        for (index, name) in names.enumerated() {
            if !fields.contains(name) {
                problems.append(Problem(line: 1, field: "column \(index + 1)", message: "unknown column “\(name)”; the columns are \(fields.joined(separator: ", "))"))
            } else if !seen.insert(name).inserted {
                problems.append(Problem(line: 1, field: "column \(index + 1)", message: "the column “\(name)” appears twice"))
            }
        }
        let absent = requiredFields.subtracting(names)
        for missing in absent.sorted() {
            problems.append(Problem(line: 1, field: nil, message: "the required column “\(missing)” is missing"))
        }
        // The rows are still checked, against the known columns (the first of a name twice),
        // so one file's run shows every problem; a missing column is reported once, above.
        let known = Dictionary(names.enumerated().filter { fields.contains($0.element) }.map { ($0.element, $0.offset) }, uniquingKeysWith: min)
        return records.dropFirst().compactMap { record in
            guard record.fields.count == names.count else {
                problems.append(Problem(
                    line: record.line, field: nil,
                    message: "\(record.fields.count) fields where the header names \(names.count) (a comma inside a value needs quotes)"
                ))
                return nil
            }
            var values = Fields(line: record.line, absent: absent)
            for (name, index) in known { values.values[name] = (CSV.cellValue(record.fields[index]), record.line) }
            return values
        }
    }

    private static func jsonRecords(_ text: String, problems: inout [Problem]) -> [Fields] {
        let document: JSONText
        do {
            document = try JSONText.parse(text)
        } catch {
            problems.append(Problem(line: error.line, field: nil, message: "not valid JSON: \(error.message)"))
            return []
        }
        guard case .array(let elements, _) = document else {
            problems.append(Problem(line: document.line, field: nil, message: "a JSON catalog is an array of product objects: [{\"slug\": …}, …]"))
            return []
        }
        return elements.compactMap { element in
            guard case .object(let members, let line) = element else {
                problems.append(Problem(line: element.line, field: nil, message: "each element of the array must be an object"))
                return nil
            }
            var values = Fields(line: line)
            for member in members {
                let name = member.name
                // An unknown or repeated member is reported, and the object's other members
                // still checked, so one run shows every problem.
                guard fields.contains(name) else {
                    problems.append(Problem(line: member.line, field: name, message: "unknown field “\(name)”; the fields are \(fields.joined(separator: ", "))"))
                    continue
                }
                guard values.values[name] == nil else {
                    problems.append(Problem(line: member.line, field: name, message: "the field appears twice in one object"))
                    continue
                }
                switch member.value {
                case .string(let text, _): values.values[name] = (text, member.line)
                case .number(let text, _) where name == "price": values.values[name] = (text, member.line)
                case .bool(let flag, _) where name == "featured" || name == "active": values.values[name] = (flag ? "true" : "false", member.line)
                case .null where !requiredFields.contains(name): break
                default:
                    let kind = name == "price" ? "a string or number like \"24.50\"" : name == "featured" || name == "active" ? "true or false" : "a string"
                    problems.append(Problem(line: member.line, field: name, message: "must be \(kind)"))
                    // Reported here: the product's check must not call it missing too.
                    values.absent.insert(name)
                }
            }
            // A missing required field is reported by the check of the product, at the object's line.
            return values
        }
    }

    // MARK: - Checking one product

    private static func check(
        _ record: [String: (value: String, line: Int)], line: Int, absent: Set<String>, context: Context, problems: inout [Problem]
    ) -> Row? {
        let before = problems.count
        func text(_ field: String, required: Bool) -> String {
            let value = (record[field]?.value ?? "").trimmingWhitespace(newlines: false)
            let at = record[field]?.line ?? line
            if required, value.isEmpty, !absent.contains(field) {
                problems.append(Problem(line: at, field: field, message: "missing"))
            } else if let maximum = maximumLengths[field], value.count > maximum {
                problems.append(Problem(line: at, field: field, message: "longer than \(maximum) characters"))
            } else if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems.append(Problem(line: at, field: field, message: "holds a line break or other control character"))
            }
            return value
        }
        func flag(_ field: String, default fallback: Bool) -> Bool {
            let value = text(field, required: false).lowercased()
            switch value {
            case "": return fallback
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default:
                problems.append(Problem(line: record[field]?.line ?? line, field: field, message: "“\(value)” is not true or false"))
                return fallback
            }
        }

        let slug = text("slug", required: true)
        if !slug.isEmpty, !isURLSafe(slug) {
            problems.append(Problem(
                line: line, field: "slug",
                message: "“\(slug)” is not URL-safe: use lower-case letters a–z, digits and single hyphens between them"
            ))
        }
        let name = text("name", required: true)
        let summary = text("summary", required: false)
        let category = text("category", required: true)
        let priceText = text("price", required: true)
        var price = Money.zero
        if !priceText.isEmpty {
            if let parsed = parsePrice(priceText) {
                price = parsed
            } else {
                problems.append(Problem(
                    line: record["price"]?.line ?? line, field: "price",
                    message: "“\(priceText)” is not a price: write dollars with up to two decimals, like 24.50, at most 1000000.00"
                ))
            }
        }
        let imageText = text("image", required: false)
        if !imageText.isEmpty {
            let at = record["image"]?.line ?? line
            let fileExtension = imageText.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if imageText.contains("/") || imageText.contains("\\") || imageText.hasPrefix(".") {
                problems.append(Problem(line: at, field: "image", message: "“\(imageText)” must be a plain file name in the media folder"))
            } else if !imageExtensions.contains(fileExtension) || !imageText.contains(".") {
                problems.append(Problem(line: at, field: "image", message: "“\(imageText)” is not a .jpg, .jpeg, .png or .webp file"))
            } else if !context.hasMediaFile(imageText) {
                problems.append(Problem(line: at, field: "image", message: missingImageMessage(imageText, context: context)))
            } else if let message = context.imageProblem(imageText) {
                problems.append(Problem(line: at, field: "image", message: message))
            }
        }
        let icon = text("icon", required: false)
        if !icon.isEmpty, !isURLSafe(icon) || context.knownIcons.map({ !$0.contains(icon) }) ?? false {
            problems.append(Problem(line: record["icon"]?.line ?? line, field: "icon", message: "unknown icon “\(icon)”"))
        }
        let featured = flag("featured", default: false)
        let active = flag("active", default: true)
        guard problems.count == before else { return nil }
        return Row(
            line: line, slug: slug, name: name, summary: summary, category: category, price: price,
            image: imageText.isEmpty ? nil : imageText, icon: icon.isEmpty ? nil : icon, isFeatured: featured, isActive: active
        )
    }

    /// Says which folder a missing photo was looked for in, and when that folder is not there at all.
    private static func missingImageMessage(_ fileName: String, context: Context) -> String {
        let message = "unknown image file “\(fileName)”: it is not in the media folder"
        guard let folder = context.mediaFolder else { return message }
        if folder.exists { return "\(message) \(folder.path)" }
        return "\(message) \(folder.path), which does not exist yet (create it and put the photos there, or name another folder with --media)"
    }

    /// Lower-case ASCII letters and digits in runs joined by single hyphens.
    static func isURLSafe(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("-") && !text.hasSuffix("-") && !text.contains("--")
            && text.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// `24.50`, `24.5`, `24` → whole cents; `nil` for anything else (signs, exponents,
    /// thousands separators, more than two decimals, more than the maximum).
    static func parsePrice(_ text: String) -> Money? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let dollarsText = parts.first, !dollarsText.isEmpty, dollarsText.count <= 9,
              dollarsText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let dollars = Int64(dollarsText) else { return nil }
        var cents: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...2).contains(fraction.count), fraction.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let value = Int64(fraction) else { return nil }
            cents = fraction.count == 1 ? value * 10 : value
        }
        let total = dollars * 100 + cents
        return total <= maximumPriceCents ? Money(cents: total) : nil
    }

    /// A price as the file writes it: `24.50`.
    static func priceText(_ money: Money) -> String {
        let cents = money.cents
        let fraction = cents % 100
        return "\(cents / 100)." + (fraction < 10 ? "0" : "") + String(fraction)
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
