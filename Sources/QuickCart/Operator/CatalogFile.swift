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

    typealias Format = TableFile.Format

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
    /// Every instance holds the whole catalog in memory, with a product card made for each
    /// product, and makes them all again after each import: this bounds that memory and work.
    static let maximumProducts = 10_000
    /// The file's shape, for ``TableFile``.
    static let schema = TableFile.Schema(
        kind: "catalog", jsonName: "catalog", itemNoun: "product", fields: fields, requiredFields: requiredFields, signature: ["slug", "price"],
        numberFields: ["price"], flagFields: ["featured", "active"], maximumItems: maximumProducts,
        maximumItemsAdvice: "every instance keeps the whole catalog, and a product card for each product, in memory. "
            + "Splitting the file is no way round it, since an import replaces the whole catalog and makes the products a file leaves out inactive: "
            + "leave out the products you no longer sell (carts and past orders keep them, as no longer available)"
    )
    typealias Problem = TableFile.Problem
    typealias Failure = TableFile.Failure
    static let maximumLengths = ["slug": 80, "name": 120, "summary": 300, "category": 60, "image": 200, "icon": 40]
    /// Prices up to $1,000,000.00.
    static let maximumPriceCents: Int64 = 100_000_000
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// Reads and checks a whole catalog file.
    /// - Returns: The rows in file order, or every problem found (never both).
    static func read(_ bytes: [UInt8], context: Context) -> Result<[Row], Failure> {
        TableFile.rows(bytes, schema: schema, keyField: "slug", key: \.slug) { record, problems in
            check(record.values, line: record.line, absent: record.absent, context: context, problems: &problems)
        }
    }

    // MARK: - Checking one product

    private static func check(
        _ record: [String: (value: String, line: Int)], line: Int, absent: Set<String>, context: Context, problems: inout [Problem]
    ) -> Row? {
        let before = problems.count
        func text(_ field: String, required: Bool) -> String {
            TableFile.text(field, of: record, line: line, required: required && !absent.contains(field), maximum: maximumLengths[field], problems: &problems)
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
}
